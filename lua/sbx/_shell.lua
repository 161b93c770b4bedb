-- SPDX-License-Identifier: MIT
--- Host commands from sbxlua's own Lua (the backends, the explorer): a word
-- quoted for `sh`, and a command run through `io.popen`.  Only for
-- commands sbxlua composes itself; every operand goes through `quote`.
-- @module sbx._shell
local M = {}

--- A word for `sh`: in single quotes, each `'` as `'\''`.
-- @param s a string (anything else through `tostring`)
-- @treturn string
function M.quote(s)
	return "'" .. tostring(s):gsub("'", "'\\''") .. "'"
end

--- Runs a command line with `sh`.
-- @tparam string cmd
-- @return its standard output, whether it exited 0, and its exit status
-- (0 when it did)
function M.run(cmd)
	local f = assert(io.popen(cmd, "r"))
	local out = f:read("a")
	local ok, _, code = f:close()
	return out, ok == true, ok and 0 or code
end

return M
