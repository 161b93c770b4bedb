-- SPDX-License-Identifier: MIT
--- sbx._owner: whose files the host side trusts (private to lua/sbx).
-- @module sbx._owner
local M = {}

--- Whether uid is mapped in the caller's user namespace.  An id that is
-- not (shown as the overflow uid, e.g. the host's root seen from a rootless
-- container) is no id a box of ours can write as.
-- @tparam integer uid
-- @treturn boolean
function M.mapped(uid)
	local f = io.open("/proc/self/uid_map")
	if not f then return true end
	for line in f:lines() do
		local first, _, count = line:match("^%s*(%d+)%s+(%d+)%s+(%d+)")
		if first and uid >= tonumber(first) and uid - tonumber(first) < tonumber(count) then
			f:close()
			return true
		end
	end
	f:close()
	return false
end

--- Whether a file owned by uid is the host's own: owned by root, or by an
-- id outside the caller's user namespace.  The standard box never writes
-- as either (a root caller's box runs as `sbx.stdbox.root_host_id`).
-- @tparam integer uid
-- @treturn boolean
function M.hosts(uid)
	return uid == 0 or not M.mapped(uid)
end

return M
