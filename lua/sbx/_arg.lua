-- SPDX-License-Identifier: MIT
--- sbx._arg: the type check of a Lua-facing function's argument (private
-- to lua/sbx), as `luaL_checktype` words it.
-- @module sbx._arg
local M = {}

--- Raises `bad argument #n to 'fname' (want expected, got TYPE)`, blaming
-- the caller of the function that checks, unless v is of type want.
-- @param v the argument
-- @tparam string want a type's name (`"table"`)
-- @tparam integer n its position
-- @tparam string fname the function's name
-- @return v
function M.check(v, want, n, fname)
	if type(want) ~= "string" or math.type(n) ~= "integer" or type(fname) ~= "string" then
		error("bad argument to 'check' (a value, a type's name, a position and a function's name expected)", 2)
	end
	if type(v) ~= want then
		error(("bad argument #%d to '%s' (%s expected, got %s)"):format(n, fname, want, type(v)), 3)
	end
	return v
end

return M
