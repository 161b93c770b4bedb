-- SPDX-License-Identifier: MIT
--- sbx._sigma_util: what the parts of `sbx.sigma` share (private to
-- lua/sbx): how a rule's problem is raised, how a value is quoted in a
-- message, and UTF-8 character lengths.
-- @module sbx._sigma_util
local M = {}

--- Raises a rule's problem: a table `{ why = }`, caught by `sbx.sigma`'s
-- compiler and reported with the rule as not supported.  Any other error
-- (sbxlua's SIGINT among them) goes on up.
-- @tparam string fmt the reason, a format when more arguments follow
-- @param ... its arguments
function M.fail(fmt, ...)
	error({ why = select("#", ...) > 0 and fmt:format(...) or fmt }, 0)
end

--- Whether an error is sbxlua's SIGINT (never a rule's problem).
-- @param err an error value
-- @treturn boolean
function M.interrupted(err)
	return type(err) == "string" and err:find("interrupted!$") ~= nil
end

--- A value short enough to quote in a message: cut at 80 bytes, control
-- and non-ASCII bytes as `\xHH`.
-- @param s anything (through `tostring`)
-- @treturn string
function M.shown(s)
	s = tostring(s)
	if #s > 80 then s = s:sub(1, 77) .. "..." end
	return (s:gsub("[%c\128-\255]", function(c) return ("\\x%02x"):format(c:byte()) end))
end

--- The length of the UTF-8 character at i (a byte that starts none, or a
-- sequence cut short: the bytes up to where it breaks, at least 1).
-- @tparam string s
-- @tparam integer i
-- @treturn integer
function M.char_len(s, i)
	local b = s:byte(i)
	if not b or b < 0xC0 then return 1 end
	local n = b >= 0xF0 and 4 or b >= 0xE0 and 3 or 2
	for k = 1, n - 1 do
		local c = s:byte(i + k)
		if not c or c < 0x80 or c > 0xBF then return k end
	end
	return n
end

return M
