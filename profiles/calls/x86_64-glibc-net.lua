-- SPDX-License-Identifier: MIT
-- The system calls of the strict profile's step "net" on x86_64 with
-- glibc 2.36, as strace saw them.  Made by scripts/trace-profile.sh:
-- strace 6.1 -f -qq -e trace=all -o FILE (no --seccomp-bpf),
-- outside the box, env -i PATH=/usr/bin:/bin, kernel 6.18.44-fc-v1098, over:
--   build/tests/corpus_net
-- Merged (--union) with the names this file held before.
-- Regenerate: scripts/trace-profile.sh [--union] net;
-- verify: scripts/trace-profile.sh --check net.  Data for profiles/strict.lua.
return {
	"accept",
	"access",
	"arch_prctl",
	"bind",
	"brk",
	"close",
	"connect",
	"execve",
	"exit_group",
	"getrandom",
	"getsockname",
	"listen",
	"mmap",
	"mprotect",
	"munmap",
	"newfstatat",
	"openat",
	"pread64",
	"prlimit64",
	"read",
	"recvfrom",
	"recvmsg",
	"rseq",
	"sendmsg",
	"sendto",
	"set_robust_list",
	"set_tid_address",
	"setsockopt",
	"shutdown",
	"socket",
	"write",
}
