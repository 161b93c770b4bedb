-- SPDX-License-Identifier: MIT
-- profiles/watch.lua: the analysis box's profile: watch everything, change
-- nothing a host would not.
--
-- Data, not code: lua/sbx/profile.lua loads it in an empty environment and
-- hands it one argument (`...`) whose `load(name)` gives the default
-- profile, so it is loaded by name (`--profile watch`, `--explore`).  See
-- docs/seccomp.md, "The watch profile", and docs/standard-box.md, "What
-- the analysis box refuses".
--
-- What the default box refuses to protect the host or the box's walls is
-- refused here, with the same errno, and named (each refusal `{errno = E,
-- notify = true}`: the supervisor checks the rule's own comparisons
-- against the call's registers and answers E in every mode, log mode
-- included).  What the default box refuses only to be strict, and an
-- unprivileged host user may do, is let through here and recorded
-- (LET_THROUGH below: ptrace and the other calls between the box's own
-- processes, set-id bits on the box's own files, openat2, the handful of
-- calls a host answers anyway).  memfd_create is watched, as in the
-- default profile: the supervisor makes and counts each memfd.  The calls the behaviour
-- summary reads are sent to the supervisor and let through (mode log:
-- CONTINUE; the walls, not the name read, decide what each reaches).
-- Everything else the default profile allows stays allowed and unnotified.
--
-- profiles/watch-rw.lua is this profile with the default's set-id
-- refusals kept: the analysis box uses it when it binds a host directory
-- writable (--rw), where a set-id file would be one on the host while the
-- box runs.

local ctx = ...
local default = ctx.load("default")

-- mmap's and mprotect's PROT_EXEC, mmap's MAP_ANONYMOUS
local PROT_EXEC = 0x4
local MAP_ANONYMOUS = 0x20

-- The default's refusals this profile lets through, each watched (a
-- notified call, recorded); docs/standard-box.md says why each is safe.
-- Set-id modes are let through by dropping their conditional rules
-- (chmod, open and the like are watched below anyway).
local LET_THROUGH = {
	-- between the box's processes: its pid namespace names no process
	-- outside, its user namespace holds no capability, and the kernel's
	-- own check (same ids, dumpable) refuses init, which is not dumpable
	ptrace = true, process_vm_readv = true, process_vm_writev = true,
	kcmp = true, pidfd_getfd = true,
	-- its flags and mode in memory: the supervisor reads them (the
	-- opens are watched), and set-id modes are let through here
	openat2 = true,
	-- a read for any user; a change needs CAP_SYS_TIME over the host,
	-- which the kernel checks itself
	adjtimex = true, clock_adjtime = true,
	-- calls any user may make, with nothing of the host's behind them
	name_to_handle_at = true, fanotify_init = true, modify_ldt = true,
	uselib = true, sysfs = true, _sysctl = true, nfsservctl = true,
}

-- Set-id modes: every rule of the default on these calls refuses a mode
-- with S_ISUID or S_ISGID (chmod 4755, open with O_CREAT and 02755, ...),
-- and none is kept; the files the host keeps are swept instead
-- (sbx.setid, docs/standard-box.md).  profiles/watch-rw.lua keeps them.
local SETID_CALLS = { chmod = true, fchmod = true, fchmodat = true, fchmodat2 = true,
	open = true, openat = true, creat = true, mknod = true, mknodat = true }

local LOW32 = 0xffffffff
local rules = {}
for i = 1, #default.rules do
	local r = default.rules[i]
	local action = { errno = r.action.errno, notify = r.action.errno ~= "ENOSYS" or nil }
	if r.call == "prlimit64" then
		-- another process's limits, but init's (pid 1, which shares
		-- the command's ids); compared on the 32 bits of a pid_t
		rules[#rules + 1] = { call = r.call, args = { { 0, "&==", 1, LOW32 } }, action = action }
	elseif not (LET_THROUGH[r.call] or SETID_CALLS[r.call]) then
		rules[#rules + 1] = { call = r.call, args = r.args, optional = r.optional, action = action }
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
	{ "open" }, { "openat" }, { "openat2" }, { "creat" }, { "execve" }, { "execveat" },
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
	-- the default's refusals let through (LET_THROUGH), recorded
	{ "ptrace" }, { "process_vm_readv" }, { "process_vm_writev" }, { "kcmp" },
	{ "pidfd_getfd" }, { "prlimit64", { { 0, "!=", 0 } } }, { "adjtimex" }, { "clock_adjtime" },
	{ "name_to_handle_at" }, { "fanotify_init" }, { "modify_ldt" },
	{ "uselib", optional = true }, { "sysfs", optional = true },
	{ "mmap", { { 2, "&==", PROT_EXEC, PROT_EXEC }, { 3, "&==", MAP_ANONYMOUS, MAP_ANONYMOUS } } },
	{ "mprotect", { { 2, "&==", PROT_EXEC, PROT_EXEC } } },
	-- a process naming itself (prctl PR_SET_NAME, 15: the supervisor
	-- reads the name and argv[0] as the memory holds it then), a raw IP
	-- socket asked for (AF_INET 2 or AF_INET6 10, SOCK_RAW 3 in the
	-- type's low bits): a scanner's or a flooder's.  Not a netlink one
	-- (ss, ip and every getaddrinfo make SOCK_RAW netlink sockets)
	{ "prctl", { { 0, "==", 15 } } },
	-- the kernel's summary of the machine (uptime, memory, load, process
	-- count) asked for; a special file made by the old mknod call (a
	-- FIFO for a shell's input, a device node), which mknodat replaced
	{ "sysinfo" }, { "mknod" },
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
