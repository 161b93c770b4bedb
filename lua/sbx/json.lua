-- SPDX-License-Identifier: MIT
--- sbx.json: the one JSON encoder of every output (`run.lua --json`, a
-- batch's lines, the options' digest): object keys sorted, so that the same
-- value gives the same bytes in every process; integers as integers (never
-- `1e+15`); no escaped `/`.
--
-- How a Lua table is known to be an array: a table whose keys are exactly
-- 1..n (n >= 1) is an array, any other non-empty table an object.  Only
-- the empty table cannot say which it is; it is an array (`[]`), unless
-- its producer marked it as an object with `M.object`.  Lists are what may
-- be empty in the outputs (files, events, findings, lookups); the few maps
-- that may be empty are marked where they are made.  A schema-driven
-- encoder would need every producer's shape twice; a marker on every list
-- would be forgotten on the one list that happens to be empty.  The JSON
-- Schema files under docs/schema/ check the outputs' shapes against real
-- runs (tests/json_spec.lua).
-- @module sbx.json
local M = {}

local cjson_encode = require("cjson").encode
local argcheck = require("sbx._arg").check

local concat, sort, type, mtype = table.concat, table.sort, type, math.type
local find, gsub, format = string.find, string.gsub, string.format
local getmetatable, tointeger, huge, floor = getmetatable, math.tointeger, math.huge, math.floor

-- the metatable of a table that is an object even when empty
local OBJECT = { __name = "sbx.json.object" }

--- Marks t (or a new table) as an object: `{}` when empty.
-- @tparam[opt] table t
-- @treturn table t
function M.object(t)
	if t ~= nil and type(t) ~= "table" then
		error(("bad argument #1 to 'object' (table expected, got %s)"):format(type(t)), 2)
	end
	return setmetatable(t or {}, OBJECT)
end

local function is_array(t)
	if getmetatable(t) == OBJECT then return false end
	local n = #t
	if n == 0 then return next(t) == nil end
	for k in pairs(t) do
		if mtype(k) ~= "integer" or k < 1 or k > n then return false end
	end
	return true
end

-- a string as cjson escapes it (in C: twice as fast as a Lua pattern),
-- without its escaped "/": cjson escapes every "/" and never leaves a
-- backslash before a raw "/", so each "\/" in its text is one of those
local function string_of(s)
	local e = cjson_encode(s)
	if find(e, "\\/", 1, true) then e = gsub(e, "\\/", "/") end
	return e
end

local function number_of(x)
	if mtype(x) == "integer" then return format("%d", x) end
	if x ~= x or x == huge or x == -huge then return "null" end
	if x == floor(x) and x < 2 ^ 53 and x > -2 ^ 53 then return format("%d", tointeger(x)) end
	-- the shortest text that reads back as the same number
	local t = format("%.15g", x)
	if tonumber(t) == x then return t end
	t = format("%.16g", x)
	if tonumber(t) == x then return t end
	return format("%.17g", x)
end

local encode

--- The keys of a table, sorted (its keys must compare with each other:
-- all strings, or all numbers).
-- @tparam table t
-- @treturn table
function M.sorted_keys(t)
	argcheck(t, "table", 1, "sorted_keys")
	local keys = {}
	for k in pairs(t) do keys[#keys + 1] = k end
	sort(keys)
	return keys
end

local function object_of(v)
	local keys, parts = {}, {}
	local n = 0
	for k in pairs(v) do
		n = n + 1
		keys[n] = type(k) == "string" and k or tostring(k)
	end
	sort(keys)
	for i, k in ipairs(keys) do
		local val = v[k]
		if val == nil then val = v[tonumber(k)] end
		parts[i] = string_of(k) .. ":" .. encode(val)
	end
	return "{" .. concat(parts, ",") .. "}"
end

encode = function(v)
	local t = type(v)
	if t == "string" then return string_of(v) end
	if t == "number" then return number_of(v) end
	if t == "boolean" then return tostring(v) end
	if t ~= "table" then return "null" end
	if not is_array(v) then return object_of(v) end
	local parts = {}
	for i = 1, #v do parts[i] = encode(v[i]) end
	return "[" .. concat(parts, ",") .. "]"
end

--- Encodes a value as JSON (strings are expected to be UTF-8: the
-- results escape those that are not, `sbx.report.result`).  A function,
-- userdata or thread is `null`, as a NaN or an infinity.
-- @param v a value of strings, numbers, booleans and tables
-- @treturn string
function M.encode(v)
	return encode(v)
end

return M
