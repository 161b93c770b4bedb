-- SPDX-License-Identifier: MIT
--- ATT&CK Enterprise as sbxlua knows it: every current technique's name
-- and tactics, each revoked id's successor, the deprecated ids.  The data
-- (`sbx.attack_data`) is generated from MITRE's own data by
-- scripts/attack-table.py; docs/attack.md says from what, and how to
-- make it again for a newer release.
-- @module sbx.attack
local data = require "sbx.attack_data"
local argcheck = require("sbx._arg").check

local M = {}

--- The release (`"19.0"`), its date, and how the table was made (a list
-- of sentences: the STIX data and the notes it was made from).
M.version, M.date, M.made = data.version, data.date, data.made

local TACTIC = {}
for i, t in ipairs(data.tactics) do
	TACTIC[t[1]] = { shortname = t[1], id = t[2], name = t[3], order = i }
end

local function check_id(id, fname)
	if type(id) ~= "string" then
		error(("bad argument #1 to '%s' (string expected, got %s)"):format(fname, type(id)), 3)
	end
	if not (id:match("^T%d%d%d%d$") or id:match("^T%d%d%d%d%.%d%d%d$")) then
		error(("bad argument #1 to '%s' (an ATT&CK technique id expected, got '%s')"):format(fname,
			id:sub(1, 40)), 3)
	end
end

--- A current technique: `{ id =, name =, tactics = { shortname... } }`;
-- else nil and why: `"revoked"` and the id that replaced it,
-- `"deprecated"`, or `"unknown"`.
-- @tparam string id `T1059.004`
function M.technique(id)
	check_id(id, "technique")
	local t = data.techniques[id]
	if t then return { id = id, name = t[1], tactics = { table.unpack(t, 2) } } end
	if data.revoked[id] then return nil, "revoked", data.revoked[id] end
	if data.deprecated[id] then return nil, "deprecated" end
	return nil, "unknown"
end

--- The id to name today for `id`: itself when current, its successor when
-- revoked (a second result `true`), nil when deprecated or unknown.
-- @tparam string id
function M.current(id)
	check_id(id, "current")
	if data.techniques[id] then return id, false end
	local to = data.revoked[id]
	if to and data.techniques[to] then return to, true end
	return nil
end

--- A tactic by its short name (`"stealth"`): `{ shortname =, id =, name =,
-- order = }` or nil.
-- @tparam string shortname
function M.tactic(shortname)
	argcheck(shortname, "string", 1, "tactic")
	return TACTIC[shortname]
end

--- The tactics, in the matrix's order (short names).
function M.tactics()
	local out = {}
	for i, t in ipairs(data.tactics) do out[i] = t[1] end
	return out
end

return M
