-- SPDX-License-Identifier: MIT
-- profiles/watch-rw.lua: the analysis box's profile when it binds a host
-- directory writable (--rw): the watch profile with the default profile's
-- set-id refusals kept.
--
-- Data, not code (lua/sbx/profile.lua loads it, as profiles/watch.lua).
-- A file the box makes set-id in a --rw directory is one on the host while
-- the box runs (the host's mount of it has no nosuid), and any local user
-- could run it as the box's host id before the sweep after the run
-- (sbx.setid) clears it.  So, as in the default box, every call that sets
-- S_ISUID or S_ISGID through an argument the filter reads is refused
-- (EPERM, named), and openat2, whose mode is in memory, is ENOSYS again.
-- Everything else is the watch profile's.

local ctx = ...
local watch, default = ctx.load("watch"), ctx.load("default")

-- the calls whose default rules are all set-id refusals (profiles/watch.lua)
local SETID_CALLS = { chmod = true, fchmod = true, fchmodat = true, fchmodat2 = true,
	open = true, openat = true, creat = true, mknod = true, mknodat = true }

local rules = {}
for i = 1, #watch.rules do
	local r = watch.rules[i]
	if r.call ~= "openat2" then rules[#rules + 1] = r end
end
for i = 1, #default.rules do
	local r = default.rules[i]
	if SETID_CALLS[r.call] then
		rules[#rules + 1] = { call = r.call, args = r.args, optional = r.optional,
			action = { errno = r.action.errno, notify = true } }
	elseif r.call == "openat2" then
		rules[#rules + 1] = { call = r.call, action = r.action }
	end
end

return {
	default = watch.default,
	rules = rules,
	notify = watch.notify,
}
