-- SPDX-License-Identifier: MIT
--- sbx._sigma_yaml: a rules file's YAML, read with guards (private to
-- lua/sbx, for `sbx.sigma`), and the shapes of the values it holds.
--
-- A rule file is hostile input: the text is walked once by libyaml's event
-- parser (lua-yaml) before it is loaded, and refused when it nests deeper
-- than allowed or holds too many nodes once its aliases are expanded (a
-- "billion laughs"), or an alias of itself.
-- @module sbx._sigma_yaml
local util = require "sbx._sigma_util"

local interrupted, shown = util.interrupted, util.shown

local M = {}

local lyaml, yaml -- loaded on first use

local function load_yaml()
	if lyaml then return end
	local ok, m = pcall(require, "lyaml")
	if not ok then error("sbx.sigma: lua-yaml is not installed (Debian package lua-yaml)", 0) end
	lyaml, yaml = m, require "yaml"
end

-- The guard: libyaml's events, counted before lyaml builds a table (which
-- shares an alias's table, so a walk of it would expand it): the depth,
-- the nodes with every alias expanded, and an alias of a node that is
-- not closed yet (lyaml would make a cycle of it).  A parse error is left
-- to lyaml.load, which says where it is.

-- the nodes an event adds: 1, an alias's expanded size; nil, why for an
-- alias of a node not closed yet
local function node_size(e, t, sizes)
	if t ~= "ALIAS" then
		if e.anchor then sizes[e.anchor] = 1 end
		return 1
	end
	if sizes[e.anchor] == false then return nil, ("alias *%s refers to itself"):format(shown(e.anchor)) end
	return sizes[e.anchor] or 1
end

-- one event of the walk on its state G: nil, or false, why to stop
local function walk(G, e, t, L)
	if t == "MAPPING_START" or t == "SEQUENCE_START" then
		if #G.stack >= L.MAX_DEPTH then return false, ("nested deeper than %d levels"):format(L.MAX_DEPTH) end
		G.stack[#G.stack + 1] = { anchor = e.anchor, n = 1 }
		if e.anchor then G.sizes[e.anchor] = false end
		G.total = G.total + 1
	elseif t == "MAPPING_END" or t == "SEQUENCE_END" then
		local top = table.remove(G.stack)
		if top.anchor then G.sizes[top.anchor] = top.n end
		if G.stack[1] then G.stack[#G.stack].n = G.stack[#G.stack].n + top.n end
	elseif t == "SCALAR" or t == "ALIAS" then
		local add, why = node_size(e, t, G.sizes)
		if not add then return false, why end
		G.total = G.total + add
		if G.stack[1] then G.stack[#G.stack].n = G.stack[#G.stack].n + add end
	elseif t == "DOCUMENT_END" then
		G.sizes = {}
	end
	if G.total > L.MAX_NODES then
		return false, ("more than %d YAML nodes (aliases expanded)"):format(L.MAX_NODES)
	end
	return nil
end

-- true, or nil, why
local function guard(text, L)
	local next_event = yaml.parser(text)
	local G = { sizes = {}, stack = {}, total = 0 }
	while true do
		local ok, e = pcall(next_event)
		if not ok and interrupted(e) then error(e, 0) end
		local t = ok and e and tostring(e.type)
		if not t or t == "STREAM_END" then return true end
		local stop, why = walk(G, e, t, L)
		if stop == false then return nil, why end
	end
end

-- plain scalars stay text (a Sigma value `0x10` or `1e3` is matched as
-- written); only the forms of null are null
local function implicit(v)
	if v == "" or v == "~" or v == "null" or v == "Null" or v == "NULL" then return lyaml.null end
	return v
end

--- The YAML documents of a text.
-- @tparam string text
-- @tparam table limits `MAX_TEXT` (bytes), `MAX_DEPTH`, `MAX_NODES` (the
--  constants of `sbx.sigma`, read at each call)
-- @return the list of documents, or nil and why (text too long, nested
--  too deep, too many nodes, an alias of itself, malformed, no document);
--  raises when lua-yaml is missing, or on SIGINT
function M.documents(text, limits)
	load_yaml()
	if #text > limits.MAX_TEXT then return nil, ("text over %d bytes"):format(limits.MAX_TEXT) end
	local safe, why = guard(text, limits)
	if not safe then return nil, why end
	local ok, docs = pcall(lyaml.load, text, { all = true, implicit_scalar = implicit })
	if not ok then
		if interrupted(docs) then error(docs, 0) end
		return nil, "malformed YAML: " .. shown((tostring(docs):gsub("^/[^:]*:%d+: ", "")))
	end
	if type(docs) ~= "table" or docs[1] == nil then return nil, "no YAML document" end
	return docs
end

--- Whether a value is YAML's null (or absent).
-- @param v
-- @treturn boolean
function M.is_null(v) return v == nil or (lyaml ~= nil and v == lyaml.null) end

--- Whether a value is a YAML sequence (a table of keys 1..n; an empty
-- table is both a sequence and a map).
-- @param t
-- @treturn boolean
function M.is_seq(t)
	if type(t) ~= "table" or M.is_null(t) then return false end
	local n = 0
	for _ in pairs(t) do n = n + 1 end
	return n == #t
end

--- Whether a value is a YAML map with at least one key.
-- @param t
-- @treturn boolean
function M.is_map(t)
	return type(t) == "table" and not M.is_null(t) and next(t) ~= nil and not M.is_seq(t)
end

--- A scalar as text (lyaml makes numbers and booleans of tagged scalars;
-- an integral float is written as an integer).
-- @param v
-- @return a string, or nil for anything that is not a scalar
function M.text_of(v)
	if type(v) == "string" then return v end
	if math.type(v) == "float" and v == math.floor(v) and v > -2 ^ 53 and v < 2 ^ 53 then
		return tostring(math.tointeger(v))
	end
	if type(v) == "number" or type(v) == "boolean" then return tostring(v) end
	return nil
end

return M
