-- SPDX-License-Identifier: MIT
-- profiles/watch.lua: the analysis box's profile: watch everything, change
-- nothing.
--
-- Data, not code: lua/sbx/profile.lua loads it in an empty environment and
-- hands it one argument (`...`) whose `load(name)` gives the default
-- profile, so it is loaded by name (`--profile watch`, `--explore`).  See
-- docs/seccomp.md, "The watch profile".
--
-- What the default box refuses is refused here, with the same errno, and
-- named (each refusal `{errno = E, notify = true}`: the supervisor checks
-- the rule's own comparisons against the call's registers and answers E in
-- every mode, log mode included).  One change: memfd_create is allowed and
-- watched (a fileless sample shows its payload instead of failing);
-- memfd_secret stays ENOSYS.  The calls the behaviour summary reads are
-- sent to the supervisor and let through (mode log: CONTINUE; the walls,
-- not the name read, decide what each reaches).  Everything else the
-- default profile allows stays allowed and unnotified.

local ctx = ...
local default = ctx.load("default")

-- mmap's and mprotect's PROT_EXEC, mmap's MAP_ANONYMOUS
local PROT_EXEC = 0x4
local MAP_ANONYMOUS = 0x20

local rules = {}
for i = 1, #default.rules do
	local r = default.rules[i]
	if r.call ~= "memfd_create" then
		local named = r.action.errno ~= "ENOSYS"
		rules[#rules + 1] = { call = r.call, args = r.args, optional = r.optional,
			action = { errno = r.action.errno, notify = named or nil } }
	end
end

-- Watched: a call and, when only some of its cases are, their comparisons.
-- Not clone, fork or vfork: a notified call that a signal interrupts
-- before sbxlua has read it fails with EINTR where the program's handler
-- lacks SA_RESTART, while the kernel's own fork restarts whatever the
-- handler (ERESTARTNOINTR): a shell whose child exits during its next
-- fork said "Cannot fork" on a loaded machine (docs/kernel-notes.md).  A
-- process's parent is read with every event instead (its `ppid`).
local WATCHED = {
	-- files opened, programs executed
	{ "open" }, { "openat" }, { "creat" }, { "execve" }, { "execveat" },
	-- addresses connected to, bound, sent to (sendto without an address
	-- is a connected socket's send)
	{ "connect" }, { "bind" }, { "sendto", { { 4, "!=", 0 } } },
	-- files deleted, renamed, their attributes changed
	{ "unlink" }, { "unlinkat" }, { "rmdir" },
	{ "rename" }, { "renameat" }, { "renameat2" },
	{ "chmod" }, { "fchmod" }, { "fchmodat" }, { "fchmodat2", optional = true },
	{ "chown" }, { "fchown" }, { "lchown" }, { "fchownat" },
	{ "utime" }, { "utimes" }, { "futimesat" }, { "utimensat" },
	{ "setxattr" }, { "lsetxattr" }, { "fsetxattr" },
	{ "removexattr" }, { "lremovexattr" }, { "fremovexattr" },
	-- memory: a memfd made, anonymous memory mapped or made executable
	{ "memfd_create" },
	{ "mmap", { { 2, "&==", PROT_EXEC, PROT_EXEC }, { 3, "&==", MAP_ANONYMOUS, MAP_ANONYMOUS } } },
	{ "mprotect", { { 2, "&==", PROT_EXEC, PROT_EXEC } } },
	-- a process naming itself (prctl PR_SET_NAME, 15: the supervisor
	-- reads the name and argv[0] as the memory holds it then), a raw IP
	-- socket asked for (AF_INET 2 or AF_INET6 10, SOCK_RAW 3 in the
	-- type's low bits): a scanner's or a flooder's.  Not a netlink one
	-- (ss, ip and every getaddrinfo make SOCK_RAW netlink sockets)
	{ "prctl", { { 0, "==", 15 } } },
	{ "socket", { { 0, "==", 2 }, { 1, "&==", 3, 0xf } } },
	{ "socket", { { 0, "==", 10 }, { 1, "&==", 3, 0xf } } },
	-- sleeps (select, poll and the like with no descriptor), which the
	-- analysis box skips once the whole box waits, and the alarms that
	-- forbid it (core/super/sleep.c): ITIMER_REAL only, the CPU-time
	-- timers do not run while a box waits
	{ "nanosleep" }, { "clock_nanosleep" }, { "select", { { 0, "==", 0 } } },
	{ "pselect6", { { 0, "==", 0 } } }, { "poll", { { 1, "==", 0 } } }, { "ppoll", { { 1, "==", 0 } } },
	{ "alarm" }, { "setitimer", { { 0, "==", 0 } } },
}
-- kill and tkill name the signal in argument 1, tgkill in argument 2.
-- Only these: a notified call that a signal interrupts before sbxlua has
-- read it fails with EINTR where the program's handler lacks SA_RESTART
-- (the kernel's answer to a notification interrupted that early), and a
-- program that signals itself at a high rate (a timer, a stress test)
-- would see kill() fail as it never does elsewhere
local ENDING = { 1, 2, 3, 9, 15, 19 } -- SIGHUP SIGINT SIGQUIT SIGKILL SIGTERM SIGSTOP
local SIGNAL_ARG = { { "kill", 1 }, { "tkill", 1 }, { "tgkill", 2 } }
for c = 1, #SIGNAL_ARG do
	local call, index = SIGNAL_ARG[c][1], SIGNAL_ARG[c][2]
	for s = 1, #ENDING do
		WATCHED[#WATCHED + 1] = { call, { { index, "&==", ENDING[s], 0xffffffff } } }
	end
end
for i = 1, #WATCHED do
	local w = WATCHED[i]
	rules[#rules + 1] = { call = w[1], args = w[2], optional = w.optional, action = "notify" }
end

return {
	default = "allow",
	rules = rules,
	-- a notified call is let through and recorded (watch: in every mode;
	-- a list an operator adds, e.g. notify.connect, refuses in deny and
	-- stop mode); the refusals above hold in every mode
	notify = { mode = "log", watch = true },
}
