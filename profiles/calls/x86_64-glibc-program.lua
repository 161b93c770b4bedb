-- SPDX-License-Identifier: MIT
-- The system calls of the strict profile's step "program" on x86_64 with
-- glibc 2.36, as strace saw them.  Made by scripts/trace-profile.sh:
-- strace 6.1 -f -qq -e trace=all -o FILE (no --seccomp-bpf),
-- outside the box, env -i PATH=/usr/bin:/bin, kernel 6.18.44-fc-v1098, over:
--   build/tests/corpus_program
--   /bin/sh -c 'echo corpus'
--   /usr/bin/python3 -c 'import json'
--   /usr/bin/python3 -c 'import socket'
--   /bin/ls -la /
--   /usr/bin/id
-- Merged (--union) with the names this file held before.
-- Regenerate: scripts/trace-profile.sh [--union] program;
-- verify: scripts/trace-profile.sh --check program.  Data for profiles/strict.lua.
return {
	"access",
	"arch_prctl",
	"brk",
	"clock_nanosleep",
	"close",
	"connect",
	"epoll_create1",
	"execve",
	"exit_group",
	"fcntl",
	"futex",
	"getcwd",
	"getdents64",
	"getegid",
	"geteuid",
	"getgid",
	"getgroups",
	"getpid",
	"getppid",
	"getrandom",
	"gettid",
	"getuid",
	"getxattr",
	"ioctl",
	"lgetxattr",
	"lseek",
	"mmap",
	"mprotect",
	"munmap",
	"newfstatat",
	"openat",
	"pread64",
	"prlimit64",
	"read",
	"readlink",
	"rseq",
	"rt_sigaction",
	"rt_sigprocmask",
	"rt_sigreturn",
	"set_robust_list",
	"set_tid_address",
	"socket",
	"statfs",
	"statx",
	"sysinfo",
	"tgkill",
	"times",
	"write",
}
