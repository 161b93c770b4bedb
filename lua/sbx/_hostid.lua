-- SPDX-License-Identifier: MIT
--- The host id of a root caller's box, and its check: apart from
-- `sbx.stdbox` so that `sbx.run` (whose default host id it is) does not load
-- the standard box's whole policy for it.  `sbx.stdbox` re-exports both.
-- @module sbx._hostid
local core = require "sbx.core"

local M = {}

--- Host id (uid and gid) a root caller's box is mapped to, so that it never
-- runs as kernel uid 0: one no host account or service uses (0x70000000,
-- above the ranges systemd gives containers and dynamic users), so that a
-- box can reach no file, socket or process of a host service through its
-- id; its user namespace is created by that id, which the kernel charges
-- the box's per-user counters to.  `o.host_id` chooses another.
M.root_host_id = 0x70000000

-- The name and id of the first line of an /etc file (passwd, group)
-- whose field 3 is one of the n ids from id on.
local function listed(file, id, n)
	local f = io.open(file)
	if not f then return nil end
	for l in f:lines() do
		local name, v = l:match("^([^:]*):[^:]*:(%d+):")
		v = tonumber(v)
		if v and v >= id and v - id < n then
			f:close()
			return name, v
		end
	end
	f:close()
	return nil
end

--- Checks that id can be a root caller's box's host id: not root, not an
-- account or group of /etc/passwd or /etc/group, held by no process of the
-- host (a box's processes, and a container's that an OCI runtime runs as
-- this id for a root caller, in user or pid namespaces of their own, do not
-- count: another root sbxlua may be running one).  With n, the same for
-- each of the n ids from id on: the range a box's user namespace maps (an
-- OCI container's 65536), whose every id a process of the box may run as.
-- Accounts only a name service knows (LDAP...) are not seen.
-- @tparam integer id
-- @tparam[opt=1] integer n
-- @return true, or nil, reason
function M.check_host_id(id, n)
	n = n or 1
	if math.type(id) ~= "integer" or id <= 0 or id >= 0xffffffff then
		return nil, ("host id %s: a whole number from 1 to 4294967294"):format(tostring(id))
	end
	if math.type(n) ~= "integer" or n < 1 or n > 0xffffffff - id then
		return nil, ("host id %d: %s ids from it do not fit below 4294967295"):format(id, tostring(n))
	end
	local what = n == 1 and ("host id %d"):format(id) or ("host ids %d to %d"):format(id, id + n - 1)
	local who, which = listed("/etc/passwd", id, n)
	if who then
		return nil, ("%s: the account %s has %s"):format(what, who, n == 1 and "it" or tostring(which))
	end
	who, which = listed("/etc/group", id, n)
	if who then
		return nil, ("%s: the group %s has %s"):format(what, who, n == 1 and "it" or tostring(which))
	end
	local count, msg = core.uid_users(id, n)
	if not count then return nil, ("%s: %s"):format(what, msg) end
	if count > 0 then
		-- which ones (the first few): pid and name, as /proc says
		local named = {}
		for i, pid in ipairs(msg) do
			local f = io.open("/proc/" .. pid .. "/comm")
			named[i] = pid .. " " .. (f and f:read("l") or "?")
			if f then f:close() end
		end
		return nil, ("%s: %d host process(es) run as %s (%s%s)")
			:format(what, count, n == 1 and "it" or "one", table.concat(named, ", "),
				count > #named and ", ..." or "")
	end
	return true
end

-- The id `checked` last passed, and the second it did.
local memo

--- `check(id)` (`M.check_host_id`, or `sbx.stdbox`'s, which an operator
-- may replace) at most once a second for the same id: the check reads
-- every host process (about 2 ms), which a batch of boxes built in the
-- same second (by `sbx.run` or the standard box) pays once.
-- @tparam integer id
-- @tparam function check
-- @return true, or nil, reason
function M.checked(id, check)
	local stamp = ("%d@%d"):format(id, os.time())
	if memo == stamp then return true end
	local ok, why = check(id)
	if not ok then return nil, why end
	memo = stamp
	return true
end

return M
