-- SPDX-License-Identifier: MIT
-- The system calls of the strict profile's step "threads" on x86_64 with
-- glibc 2.36, as strace saw them.  Made by scripts/trace-profile.sh:
-- strace 6.1 -f -qq -e trace=all -o FILE (no --seccomp-bpf),
-- outside the box, env -i PATH=/usr/bin:/bin, kernel 6.18.44-fc-v1098, over:
--   build/tests/corpus_threads
-- Merged (--union) with the names this file held before.
-- Regenerate: scripts/trace-profile.sh [--union] threads;
-- verify: scripts/trace-profile.sh --check threads.  Data for profiles/strict.lua.
return {
	"access",
	"arch_prctl",
	"brk",
	"clone3",
	"close",
	"execve",
	"exit",
	"exit_group",
	"futex",
	"getrandom",
	"madvise",
	"mmap",
	"mprotect",
	"munmap",
	"newfstatat",
	"openat",
	"pread64",
	"prlimit64",
	"read",
	"rseq",
	"rt_sigaction",
	"rt_sigprocmask",
	"set_robust_list",
	"set_tid_address",
	"write",
}
