-- SPDX-License-Identifier: MIT
-- tests/profiles/notify.lua: a profile for the explain channel's tests.
-- Everything is allowed but the calls sent to the supervisor: opens (named
-- against the table below), socket(AF_INET), connect, bind, sendto,
-- process creation, unshare, ptrace, a large mmap, and execve and execveat
-- (each exec an event), with budgets of creations and execs.
local MMAP_CAP = 64 * 1024 * 1024
local AF_INET = 2

return {
	default = "allow",
	rules = {
		{ call = "execve", action = "notify" },
		{ call = "execveat", action = "notify" },
		{ call = "open", action = "notify" },
		{ call = "openat", action = "notify" },
		{ call = "openat2", action = "notify" },
		{ call = "creat", action = "notify" },
		{ call = "socket", action = "notify", args = { { 0, "==", AF_INET } } },
		{ call = "connect", action = "notify" },
		{ call = "bind", action = "notify" },
		{ call = "clone", action = "notify" },
		{ call = "clone3", action = "notify" },
		{ call = "unshare", action = "notify" },
		{ call = "ptrace", action = "notify" },
		{ call = "mmap", action = "notify", args = { { 1, ">", MMAP_CAP } } },
	},
	notify = {
		mode = "stop",
		open = { "/usr", "/lib", "/lib64", "/bin", "/sbin", "/etc/ld.so.cache",
			"/etc/localtime", "/etc/passwd", "/etc/group", "/proc", "/dev", "/work", "/tmp",
			"/sys/devices/system/cpu" },
		connect = {}, -- no address
		mmap_cap = MMAP_CAP,
		tasks = 16, -- process (task) creations: the 17th is refused
		execs = 8, -- execs after the program's own: the 9th is refused
	},
}
