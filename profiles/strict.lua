-- SPDX-License-Identifier: MIT
-- profiles/strict.lua: the strict profile, a measured allow-list.
--
-- Data, not code: lua/sbx/profile.lua loads it in an empty environment and
-- hands it one argument (`...`): `steps`, `calls(step)` (a measured list,
-- profiles/calls/ARCH-LIBC-STEP.lua, written by scripts/trace-profile.sh)
-- and `load(name)` (another profile).  So it is loaded by name
-- (`sbx.profile.load("strict" [, { steps = {...} }])`, `--profile strict`),
-- never by a bare dofile.  See docs/seccomp.md, "The strict profile".
--
-- It allows the union of the lists of its steps (by default program,
-- threads and spawn, for the running architecture and C library) and sends
-- every other call to the supervisor: the default action is `notify`.
-- Never plainly allowed, whatever a list holds:
--  * the calls the supervisor must see: open, openat, openat2, creat,
--    execve, execveat, connect, bind, sendmsg, sendmmsg, sendto with an
--    address, clone3, fork, vfork, clone but a thread's, mmap and mremap
--    above the size cap, ptrace, unshare, setns, mount; the calls that
--    delete, rename or change a file's attributes (unlink, rename, chmod,
--    chown, utimes and xattr families: events for the behaviour summary);
--  * every call the default profile refuses: its refusals are this
--    profile's too, with the same errno, so they hold in every mode of the
--    supervisor (log mode included: a call the default box never runs is
--    never let through here); the ones it refuses on a condition are
--    allowed only where that condition cannot hold (COMPLEMENT below;
--    narrower than the exact complement is safe, the rest goes to the
--    supervisor).

local ctx = ...
local steps = ctx.steps or { "program", "threads", "spawn" }

-- mmap's length (argument 1) and mremap's new length (argument 2) above
-- this many bytes are notified
local CAP = 64 << 20 -- 67108864

local LOW32 = 0xffffffff

-- clone's namespace flags (include/uapi/linux/sched.h); CLONE_NEWTIME is
-- part of the exit signal in clone
local CLONE_THREAD = 0x00010000
local NS = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000
	| 0x20000000 | 0x40000000

local TIOCSTI, TIOCLINUX = 0x5412, 0x541C
local F_SETLEASE = 1024
local SETID = 0x800 | 0x400 -- S_ISUID | S_ISGID
local NEW_LISTENER = 8 -- SECCOMP_FILTER_FLAG_NEW_LISTENER

-- Comparisons under which argument index's low 32 bits are none of
-- values, as a union of masked comparisons (one rule each): the argument
-- differs from all values in a bit where they all agree (one rule per such
-- bit), or, on the bits where they disagree, has a pattern none of them has
-- (one rule per pattern).  A value itself matches no rule.
local function none_of(index, values)
	local agree, v0 = LOW32, values[1]
	for i = 2, #values do agree = agree & ~(values[i] ~ v0) end
	local differ = LOW32 & ~agree
	local out = {}
	for b = 0, 31 do
		local bit = 1 << b
		if agree & bit ~= 0 then
			out[#out + 1] = { { index, "&==", ~v0 & bit, bit } }
		end
	end
	-- every pattern over the differing bits (few: 3 bits for the ioctls)
	local bits = {}
	for b = 0, 31 do
		if differ & (1 << b) ~= 0 then bits[#bits + 1] = 1 << b end
	end
	for n = 0, (1 << #bits) - 1 do
		local pat = 0
		for i = 1, #bits do
			if n & (1 << (i - 1)) ~= 0 then pat = pat | bits[i] end
		end
		local taken = false
		for i = 1, #values do
			if values[i] & differ == pat then taken = true end
		end
		if not taken then out[#out + 1] = { { index, "&==", pat, differ } } end
	end
	return out
end

-- The calls the supervisor must see.  A call mapped to a list of argument
-- conditions is allowed under any one of them, when a list holds it; a call
-- mapped to true is always notified.
local SUPERVISED = {
	open = true, openat = true, openat2 = true, creat = true,
	execve = true, execveat = true,
	connect = true, bind = true, sendmsg = true, sendmmsg = true,
	sendto = { { { 4, "==", 0 } } }, -- no address: a connected socket's send
	clone = { { { 0, "&==", CLONE_THREAD, CLONE_THREAD | NS } } }, -- a thread
	clone3 = true, fork = true, vfork = true,
	mmap = { { { 1, "<=", CAP } } },
	mremap = { { { 2, "<=", CAP } } },
	ptrace = true, unshare = true, setns = true, mount = true,
	-- files deleted, renamed, their attributes changed (a delete, rename
	-- or attribute event each; the walls still decide what they reach)
	unlink = true, unlinkat = true, rmdir = true,
	rename = true, renameat = true, renameat2 = true,
	chmod = true, fchmod = true, fchmodat = true, fchmodat2 = true,
	chown = true, fchown = true, lchown = true, fchownat = true,
	utime = true, utimes = true, futimesat = true, utimensat = true,
	setxattr = true, lsetxattr = true, fsetxattr = true,
	removexattr = true, lremovexattr = true, fremovexattr = true,
}

-- For the default profile's conditional refusals: the conditions under
-- which the call is allowed here (none of the default's can hold).  A call
-- the default refuses on a condition and missing here is notified (the
-- chmod and chown calls always are: SUPERVISED).
local COMPLEMENT = {
	prlimit64 = { { { 0, "==", 0 } } }, -- the caller's own limits
	socket = { -- AF_UNIX, AF_INET, AF_INET6, AF_NETLINK (all 64 bits)
		{ { 0, "==", 1 } }, { { 0, "==", 2 } }, { { 0, "==", 10 } }, { { 0, "==", 16 } },
	},
	ioctl = none_of(1, { TIOCSTI, TIOCLINUX }),
	fcntl = none_of(1, { F_SETLEASE }),
	mknod = { { { 1, "&==", 0, SETID } } },
	mknodat = { { { 2, "&==", 0, SETID } } },
	seccomp = { { { 1, "&==", 0, NEW_LISTENER } } }, -- no listener of its own
}

-- The default profile's refusals: always (true) or on a condition ("if").
local refused = {}
local default = ctx.load("default")
for i = 1, #default.rules do
	local r = default.rules[i]
	if r.args == nil then
		refused[r.call] = true
	elseif refused[r.call] == nil then
		refused[r.call] = "if"
	end
end

-- The union of the steps' lists, sorted (each list is sorted already).
local seen, names = {}, {}
for s = 1, #steps do
	local list = ctx.calls(steps[s])
	for i = 1, #list do
		local name = list[i]
		if not seen[name] then
			seen[name] = true
			local j = #names
			while j > 0 and names[j] > name do
				names[j + 1] = names[j]
				j = j - 1
			end
			names[j + 1] = name
		end
	end
end
-- a list that creates tasks (clone3, fork, vfork) gets a thread's clone: libc
-- falls back to it when the supervisor's answer to clone3 is ENOSYS
if (seen.clone3 or seen.fork or seen.vfork) and not seen.clone then
	local j = #names
	while j > 0 and names[j] > "clone" do
		names[j + 1] = names[j]
		j = j - 1
	end
	names[j + 1] = "clone"
	seen.clone = true
end

local rules = {}
local function allow(name, conditions)
	for i = 1, #conditions do
		rules[#rules + 1] = { call = name, action = "allow", args = conditions[i] }
	end
end
for i = 1, #names do
	local name = names[i]
	local sup = SUPERVISED[name]
	if sup ~= nil then
		if sup ~= true then allow(name, sup) end
	elseif refused[name] == "if" then
		if COMPLEMENT[name] ~= nil then allow(name, COMPLEMENT[name]) end
	elseif refused[name] == nil then
		rules[#rules + 1] = { call = name, action = "allow" }
	end
end

-- the default profile's refusals, with its errno, answered by the kernel:
-- `notify = false` keeps them out of the supervisor (run.lua's
-- name_refusals would send them there, where one errno per call number
-- would also refuse this profile's notified forks and opens of the same
-- call); so they are not named, and they hold in every mode
for i = 1, #default.rules do
	local r = default.rules[i]
	rules[#rules + 1] = { call = r.call, args = r.args,
		action = { errno = r.action.errno, notify = false } }
end

return {
	default = "notify",
	rules = rules,
	-- the supervisor's answers: the first refusal ends the box; an open
	-- is named and left to the walls (mounts, Landlock); no connect, and
	-- no mapping over the cap
	notify = { mode = "stop", connect = {}, mmap_cap = CAP },
}
