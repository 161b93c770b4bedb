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

-- Whether field 3 of a line of an /etc file (passwd, group) is id.
local function listed(file, id)
	local f = io.open(file)
	if not f then return nil end
	for l in f:lines() do
		local name, n = l:match("^([^:]*):[^:]*:(%d+):")
		if n and tonumber(n) == id then
			f:close()
			return name
		end
	end
	f:close()
	return nil
end

--- Checks that id can be a root caller's box's host id: not root, not an
-- account or group of /etc/passwd or /etc/group, held by no process of the
-- host (a box's processes, and a container's that an OCI runtime runs as
-- this id for a root caller, in user or pid namespaces of their own, do not
-- count: another root sbxlua may be running one).
-- Accounts only a name service knows (LDAP...) are not seen.
-- @tparam integer id
-- @return true, or nil, reason
function M.check_host_id(id)
	if math.type(id) ~= "integer" or id <= 0 or id >= 0xffffffff then
		return nil, ("host id %s: a whole number from 1 to 4294967294"):format(tostring(id))
	end
	local who = listed("/etc/passwd", id)
	if who then return nil, ("host id %d: the account %s has it"):format(id, who) end
	who = listed("/etc/group", id)
	if who then return nil, ("host id %d: the group %s has it"):format(id, who) end
	local n, msg = core.uid_users(id)
	if not n then return nil, ("host id %d: %s"):format(id, msg) end
	if n > 0 then
		-- which ones (the first few): pid and name, as /proc says
		local named = {}
		for i, pid in ipairs(msg) do
			local f = io.open("/proc/" .. pid .. "/comm")
			named[i] = pid .. " " .. (f and f:read("l") or "?")
			if f then f:close() end
		end
		return nil, ("host id %d: %d host process(es) run as it (%s%s)")
			:format(id, n, table.concat(named, ", "), n > #named and ", ..." or "")
	end
	return true
end

return M
