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
-- would be forgotten on the one list that happens to be empty.  The text
-- is made in C (core/api/json.c: strings escaped as lua-cjson escapes them,
-- a proxy table (`__pairs`, `__index`) read as `pairs` reads it, nested as
-- deep as the Lua stack allows).  The JSON
-- Schema files under docs/schema/ check the outputs' shapes against real
-- runs (tests/json_spec.lua).
-- @module sbx.json
local M = {}

local core = require "sbx.core"
local argcheck = require("sbx._arg").check

local setmetatable, sort, type = setmetatable, table.sort, type

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

--- Encodes a value as JSON (strings are expected to be UTF-8: the
-- results escape those that are not, `sbx.report.result`).  A function,
-- userdata or thread is `null`, as a NaN or an infinity.
-- @param v a value of strings, numbers, booleans and tables
-- @treturn string
function M.encode(v)
	return core.json_encode(v, OBJECT)
end

return M
