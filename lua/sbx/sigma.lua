--- sbx.sigma: Sigma detection rules (YAML, the SigmaHQ specification) as
-- verdict rules (`sbx.verdict`) over a run's facts (`sbx.facts`).
--
-- A Sigma rule is read when its `logsource` is `product: linux` with one
-- of three categories, each matched against events made from the facts:
--
-- * `process_creation`: one event per exec (`F.execs`): `Image`,
--   `CommandLine`, `ParentImage`, `ParentCommandLine`, `User` (the box's
--   user, `sbx`), `CurrentDirectory`, `ProcessId`, `ParentProcessId`;
-- * `file_event`: one per path opened with a write flag (`F.opens`; the
--   attempt counts whatever the kernel answered: the box's root is
--   read-only) and per path written (`F.written`), each pair of path and
--   image once: `TargetFilename`, `Image`;
-- * `network_connection`: one per connection (`F.connects`) and per
--   destination of the network sink's traffic (`F.traffic`) that no
--   connection names: `DestinationIp`, `DestinationPort`,
--   `DestinationHostname`, `Image`, `Initiated` (`true`), `Protocol`.
--
-- Values match as the specification says: case-insensitively (ASCII
-- letters), with `*` and `?` (one character) wildcards and `\*`, `\?`,
-- `\\` escapes; a list of values is an OR (an AND with `|all`), a list of
-- maps an OR, a map an AND; `null` is a field that is absent or empty; a
-- number is also compared as a number in `ProcessId`, `ParentProcessId`
-- and `DestinationPort`.  The modifiers are in `M.MODIFIERS`; regular
-- expressions (`|re`) run on a matcher of this module (a Pike virtual
-- machine: time linear in the text, whatever the expression), each rule
-- within `M.MAX_STEPS` a run.  A condition holds of one event at a time;
-- a rule's finding quotes the first event it holds of, and counts them.
-- Everything else is refused rule by rule, never ignored: `compile`
-- returns the rules it could not read, each with its reason.
--
-- Rule files are hostile input too: the YAML is walked once by libyaml's
-- event parser (lua-yaml) before it is loaded, and refused when it nests
-- deeper than `M.MAX_DEPTH` or holds more than `M.MAX_NODES` nodes once
-- its aliases are expanded (a "billion laughs"), or an alias of itself.
-- @module sbx.sigma
local facts = require "sbx.facts"

local M = {}

--- The text of a rules file is refused past this size (bytes).
M.MAX_TEXT = 2 << 20
--- How deep a YAML document may nest.
M.MAX_DEPTH = 64
--- How many YAML nodes a file may hold, its aliases expanded.
M.MAX_NODES = 250000

--- The fields of each category (`logsource.category`, product linux).
M.FIELDS = {
	process_creation = { "Image", "CommandLine", "ParentImage", "ParentCommandLine", "User",
		"CurrentDirectory", "ProcessId", "ParentProcessId" },
	file_event = { "TargetFilename", "Image" },
	network_connection = { "DestinationIp", "DestinationPort", "DestinationHostname", "Image",
		"Initiated", "Protocol" },
}

--- The value modifiers understood (`re|i`, `re|m`, `re|s`: `re` and its
-- flags; `base64` and `base64offset` values match case-sensitively).
M.MODIFIERS = { "contains", "startswith", "endswith", "all", "cased", "windash", "base64",
	"base64offset", "re", "re|i", "re|m", "re|s", "cidr", "exists", "lt", "lte", "gt", "gte" }

-- the specification's modifiers that are not understood here
local UNSUPPORTED = { utf16le = true, utf16be = true, utf16 = true, wide = true, expand = true,
	fieldref = true, neq = true, minute = true, hour = true, day = true, week = true,
	month = true, year = true }

local CATEGORIES = "process_creation, file_event, network_connection"

-- level: severity and verdict
local LEVELS = {
	informational = { 1, "info" }, low = { 3, "suspicious" }, medium = { 5, "suspicious" },
	high = { 7, "malicious" }, critical = { 9, "malicious" },
}

local TACTICS = {}
for _, t in ipairs { "reconnaissance", "resource-development", "initial-access", "execution",
	"persistence", "privilege-escalation", "defense-evasion", "credential-access", "discovery",
	"lateral-movement", "collection", "command-and-control", "exfiltration", "impact" } do
	TACTICS[t] = true
end

local NUMERIC = { ProcessId = true, ParentProcessId = true, DestinationPort = true }

local FIELD_SET = {}
for cat, list in pairs(M.FIELDS) do
	FIELD_SET[cat] = {}
	for _, f in ipairs(list) do FIELD_SET[cat][f] = true end
end

-- A rule's problem: raised inside the compiler as a table, caught by
-- `compile_doc`, reported in `skipped`.  Any other error (sbxlua's
-- SIGINT among them) goes on up.
local function fail(fmt, ...)
	error({ why = select("#", ...) > 0 and fmt:format(...) or fmt }, 0)
end

local function interrupted(err)
	return type(err) == "string" and err:find("interrupted!$") ~= nil
end

-- a value short enough to quote in a message
local function shown(s)
	s = tostring(s)
	if #s > 80 then s = s:sub(1, 77) .. "..." end
	return (s:gsub("[%c\128-\255]", function(c) return ("\\x%02x"):format(c:byte()) end))
end

---------------------------------------------------------------------------
-- YAML
---------------------------------------------------------------------------

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
-- alias of a node not closed yet (lyaml would make a cycle of it)
local function node_size(e, t, sizes)
	if t ~= "ALIAS" then
		if e.anchor then sizes[e.anchor] = 1 end
		return 1
	end
	if sizes[e.anchor] == false then return nil, ("alias *%s refers to itself"):format(shown(e.anchor)) end
	return sizes[e.anchor] or 1
end

local function guard(text)
	local next_event = yaml.parser(text)
	local sizes, stack, total = {}, {}, 0
	while true do
		local ok, e = pcall(next_event)
		if not ok and interrupted(e) then error(e, 0) end
		local t = ok and e and tostring(e.type)
		if not t or t == "STREAM_END" then return true end
		if t == "MAPPING_START" or t == "SEQUENCE_START" then
			if #stack >= M.MAX_DEPTH then return nil, ("nested deeper than %d levels"):format(M.MAX_DEPTH) end
			stack[#stack + 1] = { anchor = e.anchor, n = 1 }
			if e.anchor then sizes[e.anchor] = false end
			total = total + 1
		elseif t == "MAPPING_END" or t == "SEQUENCE_END" then
			local top = table.remove(stack)
			if top.anchor then sizes[top.anchor] = top.n end
			if stack[1] then stack[#stack].n = stack[#stack].n + top.n end
		elseif t == "SCALAR" or t == "ALIAS" then
			local add, why = node_size(e, t, sizes)
			if not add then return nil, why end
			total = total + add
			if stack[1] then stack[#stack].n = stack[#stack].n + add end
		elseif t == "DOCUMENT_END" then
			sizes = {}
		end
		if total > M.MAX_NODES then
			return nil, ("more than %d YAML nodes (aliases expanded)"):format(M.MAX_NODES)
		end
	end
end

-- plain scalars stay text (a Sigma value `0x10` or `1e3` is matched as
-- written); only the forms of null are null
local function implicit(v)
	if v == "" or v == "~" or v == "null" or v == "Null" or v == "NULL" then return lyaml.null end
	return v
end

-- the documents of a text, or nil, why
local function documents(text)
	load_yaml()
	if #text > M.MAX_TEXT then return nil, ("text over %d bytes"):format(M.MAX_TEXT) end
	local safe, why = guard(text)
	if not safe then return nil, why end
	local ok, docs = pcall(lyaml.load, text, { all = true, implicit_scalar = implicit })
	if not ok then
		if interrupted(docs) then error(docs, 0) end
		return nil, "malformed YAML: " .. shown((tostring(docs):gsub("^/[^:]*:%d+: ", "")))
	end
	if type(docs) ~= "table" or docs[1] == nil then return nil, "no YAML document" end
	return docs
end

local function is_null(v) return v == nil or v == lyaml.null end

-- whether t is a YAML sequence (a table of keys 1..n; an empty table is both)
local function is_seq(t)
	if type(t) ~= "table" or t == lyaml.null then return false end
	local n = 0
	for _ in pairs(t) do n = n + 1 end
	return n == #t
end

local function is_map(t)
	return type(t) == "table" and t ~= lyaml.null and next(t) ~= nil and not is_seq(t)
end

-- a scalar as text (lyaml makes numbers and booleans of tagged scalars)
local function text_of(v)
	if type(v) == "string" then return v end
	if math.type(v) == "float" and v == math.floor(v) and v > -2 ^ 53 and v < 2 ^ 53 then
		return tostring(math.tointeger(v))
	end
	if type(v) == "number" or type(v) == "boolean" then return tostring(v) end
	return nil
end

---------------------------------------------------------------------------
-- Wildcard patterns ("globs"): a list of tokens, literal text or one of
-- these three; `cased` when matched case-sensitively
---------------------------------------------------------------------------

local STAR, QMARK, DASH = { "*" }, { "?" }, { "windash" }

-- the dashes `windash` stands for: none is a prefix of another, so at a
-- place at most one of them matches
local DASHES = { "-", "/", "\u{2013}", "\u{2014}", "\u{2015}" }

-- the length of the UTF-8 character at i (a byte that starts none: 1)
local function char_len(s, i)
	local b = s:byte(i)
	if not b or b < 0xC0 then return 1 end
	local n = b >= 0xF0 and 4 or b >= 0xE0 and 3 or 2
	for k = 1, n - 1 do
		local c = s:byte(i + k)
		if not c or c < 0x80 or c > 0xBF then return k end
	end
	return n
end

local function dash_at(s, i)
	for _, d in ipairs(DASHES) do
		if s:sub(i, i + #d - 1) == d then return #d end
	end
	return nil
end

local function push_text(out, buf)
	if #buf > 0 then out[#out + 1] = table.concat(buf) end
	return {}
end

-- A Sigma string as a glob: `*` and `?` are wildcards; a backslash
-- escapes `*`, `?` and itself, and is itself before anything else.
local function parse_glob(s)
	local out, buf, i = {}, {}, 1
	while i <= #s do
		local c = s:sub(i, i)
		local n = s:sub(i + 1, i + 1)
		if c == "\\" and (n == "*" or n == "?" or n == "\\") then
			buf[#buf + 1], i = n, i + 2
		elseif c == "*" or c == "?" then
			buf = push_text(out, buf)
			if c == "?" or out[#out] ~= STAR then out[#out + 1] = c == "*" and STAR or QMARK end
			i = i + 1
		else
			buf[#buf + 1], i = c, i + 1
		end
	end
	push_text(out, buf)
	return out
end

local function has_wildcard(g)
	for _, t in ipairs(g) do
		if type(t) ~= "string" then return true end
	end
	return false
end

local function glob_text(g)
	local out = {}
	for _, t in ipairs(g) do out[#out + 1] = type(t) == "string" and t or t[1] end
	return table.concat(out)
end

-- where a segment (tokens without STAR) that starts at i ends, or nil
local function seg_at(seg, s, i)
	for _, t in ipairs(seg) do
		if t == QMARK then
			if i > #s then return nil end
			i = i + char_len(s, i)
		elseif t == DASH then
			local n = dash_at(s, i)
			if not n then return nil end
			i = i + n
		else
			if s:sub(i, i + #t - 1) ~= t then return nil end
			i = i + #t
		end
	end
	return i
end

-- the leftmost place from i where a segment matches (each token takes a
-- whole character, so the leftmost start ends first): its end, or nil
local function seg_find(seg, s, i, at_end)
	local first = seg[1]
	while i <= #s + 1 do
		if type(first) == "string" then
			i = s:find(first, i, true)
			if not i then return nil end
		end
		local e = seg_at(seg, s, i)
		if e and (not at_end or e == #s + 1) then return e end
		i = i + char_len(s, i)
	end
	return nil
end

-- Whether s matches a compiled glob (its segments between stars): the
-- first anchored at the start, the last at the end, the others leftmost;
-- time in O(#s * #pattern), no backtracking past a star.
local function glob_match(segs, s)
	local n = #segs
	if n == 1 then return seg_at(segs[1], s, 1) == #s + 1 end
	local i = seg_at(segs[1], s, 1)
	if not i then return false end
	for k = 2, n - 1 do
		if segs[k][1] then
			i = seg_find(segs[k], s, i)
			if not i then return false end
		end
	end
	if not segs[n][1] then return true end
	return seg_find(segs[n], s, i, true) ~= nil
end

local function lower_glob(g)
	local out = {}
	for i, t in ipairs(g) do out[i] = type(t) == "string" and t:lower() or t end
	return out
end

-- a glob's segments between its stars
local function segments(g)
	local segs, cur = {}, {}
	for _, t in ipairs(g) do
		if t == STAR then
			segs[#segs + 1], cur = cur, {}
		else
			cur[#cur + 1] = t
		end
	end
	segs[#segs + 1] = cur
	return segs
end

---------------------------------------------------------------------------
-- Transformations of values: each takes a glob and returns a list of
-- globs (an OR)
---------------------------------------------------------------------------

local B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

local function base64(s)
	local out = {}
	for i = 1, #s, 3 do
		local a, b, c = s:byte(i, i + 2)
		local n = (a << 16) | ((b or 0) << 8) | (c or 0)
		local q = {}
		for k = 1, 4 do
			local v = (n >> (6 * (4 - k))) & 63
			q[k] = B64:sub(v + 1, v + 1)
		end
		if not b then q[3] = "=" end
		if not c then q[4] = "=" end
		out[#out + 1] = table.concat(q)
	end
	return table.concat(out)
end

local function literal_of(g, mod)
	if has_wildcard(g) then fail("modifier '%s' on a value with wildcards ('%s')", mod, shown(glob_text(g))) end
	return glob_text(g)
end

local TRANSFORM = {}

function TRANSFORM.contains(g)
	local out = { table.unpack(g) }
	if out[1] ~= STAR then table.insert(out, 1, STAR) end
	if out[#out] ~= STAR then out[#out + 1] = STAR end
	out.cased = g.cased
	return { out }
end

function TRANSFORM.startswith(g)
	local out = { table.unpack(g) }
	if out[#out] ~= STAR then out[#out + 1] = STAR end
	out.cased = g.cased
	return { out }
end

function TRANSFORM.endswith(g)
	local out = { table.unpack(g) }
	if out[1] ~= STAR then table.insert(out, 1, STAR) end
	out.cased = g.cased
	return { out }
end

function TRANSFORM.base64(g)
	return { { base64(literal_of(g, "base64")), cased = true } }
end

-- The three encodings of a value at offsets 0, 1 and 2 of a base64 text,
-- less the characters that depend on its neighbours (as pySigma cuts
-- them: starts 0, 2, 3; ends by (length + offset) mod 3: none, -3, -2).
function TRANSFORM.base64offset(g)
	local v = literal_of(g, "base64offset")
	local out = {}
	for i = 0, 2 do
		local e = base64((" "):rep(i) .. v)
		local cut = ({ 0, 3, 2 })[(#v + i) % 3 + 1]
		out[#out + 1] = { e:sub(({ 1, 3, 4 })[i + 1], #e - cut), cased = true }
	end
	return out
end

-- A dash or slash that starts a word after a non-word character (pySigma's
-- `\B[-/]\b`) stands for any of `DASHES`.
function TRANSFORM.windash(g)
	local out, prev_word = { cased = g.cased }, false
	for _, t in ipairs(g) do
		if type(t) ~= "string" then
			out[#out + 1], prev_word = t, false
		else
			local buf = {}
			for i = 1, #t do
				local c = t:sub(i, i)
				if (c == "-" or c == "/") and not prev_word and t:sub(i + 1, i + 1):match("^[%w_]$") then
					buf = push_text(out, buf)
					out[#out + 1] = DASH
				else
					buf[#buf + 1] = c
				end
				prev_word = c:match("^[%w_]$") ~= nil
			end
			push_text(out, buf)
		end
	end
	return { out }
end

---------------------------------------------------------------------------
-- Regular expressions: the common subset of PCRE the specification names
-- (literals, `.`, classes, `^`, `$`, `*`, `+`, `?`, `{n,m}`, `|`, groups),
-- escapes `\d \w \s \D \W \S \b \B \t \n \r \xHH` and escaped
-- punctuation, a leading `(?i)`; compiled to a program run by a Pike VM
---------------------------------------------------------------------------

local SET, SPLIT, JMP, MATCH, BOL, EOL, WB, NWB = 1, 2, 3, 4, 5, 6, 7, 8
local MAX_PROG, MAX_COUNT, MAX_GROUPS = 2000, 1000, 64

--- How many instructions the regular expressions of one file may take
-- in all (each takes at most 2000).
M.MAX_REGEX = 50000
--- How many steps (a thread reading a byte) the regular expressions of
-- one rule may take over one run: past them the rule raises (and
-- `sbx.verdict` reports the rule's error), so that a hostile expression
-- cannot hold the verdict.
M.MAX_STEPS = 5000000

-- what is left of them while `compile` runs, and while a rule runs (nil:
-- no bound)
local re_budget, re_steps

local function re_fail(P, msg) fail("regex '%s': %s", shown(P.s), msg) end

local function range(set, a, b, ci)
	for c = a, b do
		set[c] = true
		if ci and c >= 65 and c <= 90 then set[c + 32] = true end
		if ci and c >= 97 and c <= 122 then set[c - 32] = true end
	end
	return set
end

local CLASS = {
	d = function(s) return range(s, 48, 57) end,
	w = function(s) return range(range(range(range(s, 48, 57), 65, 90), 97, 122), 95, 95) end,
	s = function(s) return range(range(s, 9, 13), 32, 32) end,
}

local CONT = range({}, 0x80, 0xBF)

-- a character not in the ASCII set `set`: one byte outside it, or a
-- UTF-8 sequence (a lead byte, then continuation bytes)
local function negated(set)
	local out = range({}, 0xC0, 0xFF)
	for c = 0, 127 do
		if not set[c] then out[c] = true end
	end
	return { "char", out }
end

local ESCAPES = { t = 9, n = 10, r = 13, f = 12, v = 11, e = 27, a = 7 }

local function peek(P, n) return P.s:sub(P.i, P.i + (n or 1) - 1) end

-- `\xHH` and `\x{H...}` at P.i (after the x): the character's text
local function hex_escape(P)
	local h = P.s:match("^%x%x", P.i)
	if h then
		P.i = P.i + 2
		return string.char(tonumber(h, 16))
	end
	h = P.s:match("^{(%x+)}", P.i)
	if h and #h <= 6 and tonumber(h, 16) <= 0x10FFFF then
		P.i = P.i + #h + 2
		return utf8.char(tonumber(h, 16))
	end
	re_fail(P, "bad \\x escape")
end

-- an escape outside a class (P.i after the backslash)
local function parse_escape(P)
	local c = peek(P)
	P.i = P.i + 1
	if CLASS[c] then return { "byte", CLASS[c]({}) } end
	if CLASS[c:lower()] then return negated(CLASS[c:lower()]({})) end
	if c == "b" then return { "assert", WB } end
	if c == "B" then return { "assert", NWB } end
	if ESCAPES[c] then return { "text", string.char(ESCAPES[c]) } end
	if c == "x" then return { "text", hex_escape(P) } end
	if c:match("^%d$") then re_fail(P, "backreferences are not supported") end
	if c == "" then re_fail(P, "trailing backslash") end
	if c:match("^%w$") then re_fail(P, ("unsupported escape \\%s"):format(c)) end
	return { "text", c }
end

-- one member of a class: its first byte, last byte (a range), or a set
local function class_item(P, set)
	local c = peek(P)
	if c == "" or (c == "\\" and P.i == #P.s) then re_fail(P, "missing ]") end
	if c == "\\" then
		P.i = P.i + 1
		c = peek(P)
		P.i = P.i + 1
		if CLASS[c] then return CLASS[c](set) end
		if CLASS[c:lower()] then re_fail(P, ("\\%s inside a class is not supported"):format(c)) end
		if c == "x" then c = hex_escape(P)
		elseif ESCAPES[c] then c = string.char(ESCAPES[c])
		elseif c == "b" then c = "\b"
		elseif c:match("^%w$") then re_fail(P, ("unsupported escape \\%s in a class"):format(c)) end
	elseif P.s:match("^%[[:=.]", P.i) then
		re_fail(P, "POSIX classes ([:name:]) are not supported")
	else
		P.i = P.i + 1
	end
	if #c ~= 1 or c:byte() > 127 then re_fail(P, "a non-ASCII character in a class is not supported") end
	return c:byte()
end

-- `[...]` (P.i after the bracket)
local function parse_class(P)
	local neg = peek(P) == "^"
	if neg then P.i = P.i + 1 end
	local set, ci, first = {}, P.flags.i, true
	while first or peek(P) ~= "]" do
		if peek(P) == "" then re_fail(P, "missing ]") end
		first = false
		local a = class_item(P, set)
		if type(a) == "number" then
			if peek(P) == "-" and peek(P, 2) ~= "-]" and P.s:sub(P.i + 1, P.i + 1) ~= "]" then
				P.i = P.i + 1
				local b = class_item(P, set)
				if type(b) ~= "number" or b < a then re_fail(P, "bad range in a class") end
				range(set, a, b, ci)
			else
				range(set, a, a, ci)
			end
		end
	end
	P.i = P.i + 1
	if neg then return negated(set) end
	return { "byte", set }
end

local parse_alt

-- `(...)`: a group, non-capturing `(?:`, named `(?<n>` `(?P<n>`, or the
-- flags `(?i)`, `(?s)`, `(?m)` at the very start (P.i after the paren)
local function parse_group(P)
	if peek(P) == "?" then
		local flags = P.s:match("^%?([ims]+)%)", P.i)
		local named = P.s:match("^%?P?<[%a_][%w_]*>", P.i)
		if flags and P.i == 2 then
			for f in flags:gmatch(".") do P.flags[f] = true end
			P.i = P.i + #flags + 2
			return { "empty" }
		elseif P.s:match("^%?:", P.i) or named then
			P.i = P.i + (named and #named or 2)
		else
			re_fail(P, ("unsupported group '%s'"):format(shown(P.s:sub(P.i - 1, P.i + 1))))
		end
	end
	P.groups = P.groups + 1
	if P.groups > MAX_GROUPS then re_fail(P, "too many groups") end
	P.depth = P.depth + 1
	local node = parse_alt(P)
	P.depth = P.depth - 1
	if peek(P) ~= ")" then re_fail(P, "missing )") end
	P.i = P.i + 1
	return node
end

local function parse_atom(P)
	local c = peek(P)
	P.i = P.i + 1
	if c == "(" then return parse_group(P) end
	if c == "[" then return parse_class(P) end
	if c == "\\" then return parse_escape(P) end
	if c == "." then
		local set = P.flags.s and {} or { [10] = true }
		return negated(set)
	end
	if c == "^" then return { "assert", BOL } end
	if c == "$" then return { "assert", EOL } end
	if c == "*" or c == "+" or c == "?" or P.s:match("^{%d+,?%d*}", P.i - 1) then
		re_fail(P, "nothing to repeat")
	end
	local n = char_len(P.s, P.i - 1)
	P.i = P.i + n - 1
	return { "text", P.s:sub(P.i - n, P.i - 1) }
end

-- the quantifier after an atom, if any: min, max (nil: no bound)
local function parse_quant(P)
	local c = peek(P)
	local lo, hi
	if c == "*" then lo = 0
	elseif c == "+" then lo = 1
	elseif c == "?" then lo, hi = 0, 1
	else
		local a, comma, b = P.s:match("^{(%d+)(,?)(%d*)}", P.i)
		if not a then return nil end
		lo, hi = tonumber(a), comma == "" and tonumber(a) or tonumber(b)
		if lo > MAX_COUNT or (hi and (hi > MAX_COUNT or hi < lo)) then re_fail(P, "bad {n,m} count") end
		P.i = P.i + #a + #comma + #b + 1
	end
	P.i = P.i + 1
	if peek(P) == "?" then P.i = P.i + 1 end -- lazy: the same for whether it matches
	if peek(P) == "+" then re_fail(P, "possessive quantifiers are not supported") end
	if peek(P):match("^[*+?]$") or P.s:match("^{%d+,?%d*}", P.i) then re_fail(P, "nested quantifier") end
	return lo, hi
end

local function parse_cat(P)
	local items = {}
	if P.depth > 32 then re_fail(P, "groups nested too deep") end
	while true do
		local c = peek(P)
		if c == "" or c == "|" or c == ")" then break end
		local atom = parse_atom(P)
		local lo, hi = parse_quant(P)
		if lo and atom[1] == "assert" then re_fail(P, "nothing to repeat") end
		items[#items + 1] = lo and { "rep", atom, lo, hi } or atom
	end
	return { "cat", items }
end

function parse_alt(P)
	local alts = { parse_cat(P) }
	while peek(P) == "|" do
		P.i = P.i + 1
		alts[#alts + 1] = parse_cat(P)
	end
	return #alts == 1 and alts[1] or { "alt", alts }
end

local gen

-- the set of one byte (and its other case), shared
local byte_sets = { [true] = {}, [false] = {} }
local function byte_set(b, ci)
	ci = ci and true or false
	local set = byte_sets[ci][b]
	if not set then
		set = range({}, b, b, ci)
		byte_sets[ci][b] = set
	end
	return set
end

local function emit(prog, op, a, b)
	prog[#prog + 1] = { op, a, b }
	if #prog > MAX_PROG then fail("regex '%s': too complex", shown(prog.source)) end
	return #prog
end

-- a node repeated lo to hi times (hi nil: no bound)
local function gen_rep(prog, node, lo, hi, ci)
	for _ = 1, lo do gen(prog, node, ci) end
	if hi == nil then
		local split = emit(prog, SPLIT, #prog + 2)
		gen(prog, node, ci)
		emit(prog, JMP, split)
		prog[split][3] = #prog + 1
		return
	end
	local splits = {}
	for _ = lo + 1, hi do
		splits[#splits + 1] = emit(prog, SPLIT, #prog + 2)
		gen(prog, node, ci)
	end
	for _, s in ipairs(splits) do prog[s][3] = #prog + 1 end
end

function gen(prog, node, ci)
	local k = node[1]
	if k == "byte" then
		emit(prog, SET, node[2])
	elseif k == "char" then
		emit(prog, SET, node[2])
		gen_rep(prog, { "byte", CONT }, 0, nil)
	elseif k == "text" then
		for i = 1, #node[2] do emit(prog, SET, byte_set(node[2]:byte(i), ci)) end
	elseif k == "cat" then
		for _, n in ipairs(node[2]) do gen(prog, n, ci) end
	elseif k == "alt" then
		local jumps, alts = {}, node[2]
		for i = 1, #alts - 1 do
			local split = emit(prog, SPLIT, #prog + 2)
			gen(prog, alts[i], ci)
			jumps[#jumps + 1] = emit(prog, JMP)
			prog[split][3] = #prog + 1
		end
		gen(prog, alts[#alts], ci)
		for _, j in ipairs(jumps) do prog[j][2] = #prog + 1 end
	elseif k == "rep" then
		gen_rep(prog, node[2], node[3], node[4], ci)
	elseif k == "assert" then
		emit(prog, node[2])
	end
end

-- A regular expression (the subset this module understands) as a program
-- for `re_find`; flags `i`, `m`, `s` as the `re` sub-modifiers.  Raises
-- `{ why = }` for one it cannot translate (`M.regex` returns nil, why).
local function re_compile(s, flags)
	if #s > 4096 then fail("regex '%s': longer than 4096 characters", shown(s)) end
	local P = { s = s, i = 1, depth = 0, groups = 0, flags = {} }
	for k, v in pairs(flags or {}) do P.flags[k] = v end
	local tree = parse_alt(P)
	if P.i <= #s then re_fail(P, "unbalanced )") end
	local prog = { source = s, m = P.flags.m }
	gen(prog, tree, P.flags.i)
	emit(prog, MATCH)
	if re_budget then
		re_budget = re_budget - #prog
		if re_budget < 0 then
			fail("regex '%s': the file's regular expressions take over %d instructions", shown(s), M.MAX_REGEX)
		end
	end
	return prog
end

local function is_word(s, i)
	local b = s:byte(i)
	return b ~= nil and (b == 95 or (b >= 48 and b <= 57) or (b >= 65 and b <= 90) or (b >= 97 and b <= 122))
end

-- whether an assertion holds at i
local function holds(op, s, i, m)
	if op == BOL then return i == 1 or (m and s:byte(i - 1) == 10) end
	if op == EOL then
		return i == #s + 1 or (s:byte(i) == 10 and (m or i == #s))
	end
	local boundary = is_word(s, i - 1) ~= is_word(s, i)
	if op == WB then return boundary end
	return not boundary
end

-- Adds the thread at pc (and those it leads to without reading) to list,
-- which holds n threads: the new n, or -1 when one of them matches.
-- seen[pc] == gen_id: already added.  STACK is scratch (no call nests).
local STACK = {}

local function add_thread(prog, list, n, seen, gen_id, pc, s, i)
	local stack, top = STACK, 1
	stack[1] = pc
	while top > 0 do
		local p = stack[top]
		top = top - 1
		if seen[p] ~= gen_id then
			seen[p] = gen_id
			local ins = prog[p]
			local op = ins[1]
			if op == SET then
				n = n + 1
				list[n] = p
			elseif op == MATCH then
				return -1
			elseif op == JMP then
				top = top + 1
				stack[top] = ins[2]
			elseif op == SPLIT then
				stack[top + 1], stack[top + 2] = ins[3], ins[2]
				top = top + 2
			elseif holds(op, s, i, prog.m) then
				top = top + 1
				stack[top] = p + 1
			end
		end
	end
	return n
end

-- Whether the program matches somewhere in s: every thread in step, one
-- byte at a time (time O(#s * #prog)), a new one started at each byte.
local function re_find(prog, s)
	local seen, cur, nxt = {}, {}, {}
	local n = add_thread(prog, cur, 0, seen, 1, 1, s, 1)
	if n < 0 then return true end
	for i = 1, #s do
		if re_steps then
			re_steps = re_steps - n - 1
			if re_steps < 0 then error(("sigma: regular expressions took over %d steps"):format(M.MAX_STEPS), 0) end
		end
		local b, m = s:byte(i), 0
		for k = 1, n do
			local p = cur[k]
			if prog[p][2][b] then
				m = add_thread(prog, nxt, m, seen, i + 1, p + 1, s, i + 1)
				if m < 0 then return true end
			end
		end
		m = add_thread(prog, nxt, m, seen, i + 1, 1, s, i + 1)
		if m < 0 then return true end
		cur, nxt, n = nxt, cur, m
	end
	return false
end

--- A regular expression as a matcher.
-- @tparam string s the expression (the PCRE subset of the specification)
-- @tparam[opt] string flags letters `i`, `m`, `s`
-- @return a function(text) → boolean, or nil, why
function M.regex(s, flags)
	if type(s) ~= "string" then error(("bad argument #1 to 'regex' (string expected, got %s)"):format(type(s)), 2) end
	local f = {}
	for c in (flags or ""):gmatch(".") do f[c] = true end
	re_budget, re_steps = nil, nil
	local ok, prog = pcall(re_compile, s, f)
	if not ok then
		if type(prog) == "table" then return nil, prog.why end
		error(prog, 0)
	end
	return function(text) return re_find(prog, text) end
end

---------------------------------------------------------------------------
-- Addresses
---------------------------------------------------------------------------

local function ipv4(s)
	local p = { s:match("^(%d+)%.(%d+)%.(%d+)%.(%d+)$") }
	if not p[4] then return nil end
	for i = 1, 4 do
		p[i] = tonumber(p[i])
		if p[i] > 255 or #s > 15 then return nil end
	end
	return p
end

local function ipv6_groups(s, out)
	if s == "" then return true end
	for g in (s .. ":"):gmatch("([^:]*):") do
		local v4 = g:find("%.") and ipv4(g)
		if v4 then
			for _, b in ipairs(v4) do out[#out + 1] = b end
		elseif g:match("^%x%x?%x?%x?$") then
			local v = tonumber(g, 16)
			out[#out + 1], out[#out + 2] = v >> 8, v & 255
		else
			return false
		end
	end
	return true
end

local function ipv6(s)
	s = s:gsub("%%.*$", "")
	local head, tail = s:match("^(.-)::(.*)$")
	local h, t = {}, {}
	if not ipv6_groups(head or s, h) or not ipv6_groups(tail or "", t) then return nil end
	if (head and #h + #t > 14) or (not head and #h ~= 16) then return nil end
	for _ = 1, 16 - #h - #t do h[#h + 1] = 0 end
	for _, b in ipairs(t) do h[#h + 1] = b end
	return h
end

-- an address as its bytes (4 or 16; an IPv4-mapped IPv6 address as its 4)
local function ip_bytes(s)
	if type(s) ~= "string" then return nil end
	local b = ipv4(s) or (s:find(":") and ipv6(s))
	if b and #b == 16 then
		local mapped = b[11] == 255 and b[12] == 255
		for i = 1, 10 do mapped = mapped and b[i] == 0 end
		if mapped then return { b[13], b[14], b[15], b[16] } end
	end
	return b or nil
end

local function parse_cidr(v)
	local addr, len = v:match("^([^/]+)/(%d+)$")
	local b = ip_bytes(addr or v)
	if not b then fail("bad CIDR '%s'", shown(v)) end
	len = tonumber(len) or #b * 8
	if #b == 4 and (addr or v):find(":") then len = len - 96 end
	if len < 0 or len > #b * 8 then fail("bad CIDR '%s'", shown(v)) end
	return { bytes = b, len = len }
end

local function in_net(ip, net)
	if not ip or #ip ~= #net.bytes then return false end
	local bits = net.len
	for i = 1, #ip do
		if bits <= 0 then return true end
		local keep = bits >= 8 and 0xFF or (0xFF << (8 - bits)) & 0xFF
		if ip[i] & keep ~= net.bytes[i] & keep then return false end
		bits = bits - 8
	end
	return true
end

---------------------------------------------------------------------------
-- Field matchers: function(event) -> boolean
---------------------------------------------------------------------------

local LOWER = {} -- an event's lowered fields, by field

local function lowered(ev, field)
	local l = ev[LOWER]
	local v = l[field]
	if v == nil then
		v = ev[field]:lower()
		l[field] = v
	end
	return v
end

-- a test of one glob
local function glob_test(field, g, cased)
	local numeric = NUMERIC[field] and not has_wildcard(g) and tonumber(glob_text(g))
	cased = cased or g.cased
	local segs = segments(cased and g or lower_glob(g))
	local exact = #segs == 1 and #segs[1] <= 1 and type(segs[1][1] or "") == "string" and (segs[1][1] or "")
	return function(ev)
		local v = ev[field]
		if v == nil then return false end
		if numeric and tonumber(v) == numeric then return true end
		v = cased and v or lowered(ev, field)
		if exact then return v == exact end
		return glob_match(segs, v)
	end
end

-- the tests of one plain value: its globs after the transformations
local function plain_tests(field, spec, v)
	local globs = { parse_glob(v) }
	for _, t in ipairs(spec.transforms) do
		local out = {}
		for _, g in ipairs(globs) do
			for _, r in ipairs(TRANSFORM[t](g)) do out[#out + 1] = r end
		end
		globs = out
	end
	local tests = {}
	for _, g in ipairs(globs) do tests[#tests + 1] = glob_test(field, g, spec.cased) end
	if #tests == 1 then return tests[1] end
	return function(ev)
		for _, t in ipairs(tests) do
			if t(ev) then return true end
		end
		return false
	end
end

local CMP = {
	lt = function(a, b) return a < b end, lte = function(a, b) return a <= b end,
	gt = function(a, b) return a > b end, gte = function(a, b) return a >= b end,
}

-- the test of one value of a field, by the field's kind of modifier
local function value_test(field, spec, v)
	if is_null(v) then
		if spec.kind ~= "plain" or #spec.transforms > 0 then fail("a null value with modifiers (field %s)", field) end
		return function(ev) return ev[field] == nil or ev[field] == "" end
	end
	local s = text_of(v)
	if not s then fail("the value of field %s must be a scalar or a list of scalars", field) end
	local kind = spec.kind
	if kind == "exists" then
		local want = s:lower()
		if want ~= "true" and want ~= "false" then fail("exists takes true or false (field %s)", field) end
		return function(ev) return (ev[field] ~= nil) == (want == "true") end
	elseif kind == "re" then
		local prog = re_compile(s, spec.flags)
		return function(ev) return ev[field] ~= nil and re_find(prog, ev[field]) end
	elseif kind == "cidr" then
		local net = parse_cidr(s)
		return function(ev) return in_net(ip_bytes(ev[field]), net) end
	elseif CMP[kind] then
		local n = tonumber(s)
		if not n then fail("modifier '%s' needs a number, not '%s'", kind, shown(s)) end
		local op = CMP[kind]
		return function(ev) local x = tonumber(ev[field]); return x ~= nil and op(x, n) end
	end
	return plain_tests(field, spec, s)
end

local SPECIAL = { re = true, cidr = true, exists = true, lt = true, lte = true, gt = true, gte = true }

-- `Field|mod|mod`: the field and what its modifiers ask
local function parse_key(key)
	local parts = {}
	for p in (key .. "|"):gmatch("([^|]*)|") do parts[#parts + 1] = p end
	local spec = { field = parts[1], kind = "plain", transforms = {}, flags = {} }
	for i = 2, #parts do
		local m = parts[i]
		local special = spec.kind ~= "plain" and spec.kind
		if m == "all" then spec.all = true
		elseif m == "cased" and not special then spec.cased = true
		elseif TRANSFORM[m] and not special then spec.transforms[#spec.transforms + 1] = m
		elseif SPECIAL[m] and not special and not spec.cased and not spec.transforms[1] then spec.kind = m
		elseif special == "re" and (m == "i" or m == "m" or m == "s") then spec.flags[m] = true
		elseif m == "" then fail("an empty modifier in '%s'", shown(key))
		elseif UNSUPPORTED[m] then fail("unsupported modifier '%s'", shown(m))
		elseif TRANSFORM[m] or SPECIAL[m] or m == "cased" then
			fail("modifier '%s' cannot be combined with the others of '%s'", m, shown(key))
		else fail("unknown modifier '%s'", shown(m)) end
	end
	return spec
end

-- the matcher of one `Field|mods: values` of a selection
local function field_matcher(key, value, cat)
	local spec = parse_key(key)
	local field = spec.field
	if not FIELD_SET[cat][field] then fail("unknown field '%s' for category %s", shown(field), cat) end
	local values = is_seq(value) and value or { value }
	if type(value) == "table" and not is_null(value) and not is_seq(value) then
		fail("the value of field %s must be a scalar or a list of scalars", field)
	end
	if not values[1] then fail("an empty list of values for field %s", field) end
	local tests = {}
	for i, v in ipairs(values) do tests[i] = value_test(field, spec, v) end
	if spec.all then
		return function(ev)
			for _, t in ipairs(tests) do
				if not t(ev) then return false end
			end
			return true
		end
	end
	return function(ev)
		for _, t in ipairs(tests) do
			if t(ev) then return true end
		end
		return false
	end
end

---------------------------------------------------------------------------
-- Selections and conditions
---------------------------------------------------------------------------

local function sorted_keys(t)
	local keys = {}
	for k in pairs(t) do
		if type(k) ~= "string" then fail("a key that is not text (%s)", type(k)) end
		keys[#keys + 1] = k
	end
	table.sort(keys)
	return keys
end

local function keyword(name)
	fail("keyword selection '%s' (values without a field) is not supported", shown(name))
end

-- a map of fields: an AND
local function map_matcher(name, map, cat)
	local tests = {}
	for _, key in ipairs(sorted_keys(map)) do
		if key == "" or key:sub(1, 1) == "|" then keyword(name) end
		tests[#tests + 1] = field_matcher(key, map[key], cat)
	end
	return function(ev)
		for _, t in ipairs(tests) do
			if not t(ev) then return false end
		end
		return true
	end
end

-- a selection: a map (AND of its fields) or a list of maps (OR)
local function selection(name, body, cat)
	if is_map(body) then return map_matcher(name, body, cat) end
	if is_null(body) or (is_seq(body) and not body[1]) then fail("selection '%s' is empty", shown(name)) end
	if not is_seq(body) then keyword(name) end
	local alts = {}
	for i, m in ipairs(body) do
		if not is_map(m) then keyword(name) end
		alts[i] = map_matcher(name, m, cat)
	end
	return function(ev)
		for _, t in ipairs(alts) do
			if t(ev) then return true end
		end
		return false
	end
end

local function tokens(cond)
	local out, i = {}, 1
	while i <= #cond do
		local c = cond:sub(i, i)
		if c:match("%s") then
			i = i + 1
		elseif c == "(" or c == ")" then
			out[#out + 1], i = c, i + 1
		elseif c == "|" then
			fail("aggregation in the condition ('%s') is not supported", shown(cond:sub(i)))
		else
			local w = cond:match("^[%w_%-%.%*]+", i)
			if not w then fail("bad condition '%s': unexpected '%s'", shown(cond), shown(c)) end
			if w:lower() == "near" then fail("'near' in the condition is not supported") end
			out[#out + 1], i = w, i + #w
		end
	end
	return out
end

local parse_or

-- the selections a `1 of`/`all of` names: them (those not starting with
-- `_`), or those a pattern with `*` matches
local function selected(C, target)
	local names = {}
	if target:lower() == "them" then
		for _, n in ipairs(C.names) do
			if n:sub(1, 1) ~= "_" then names[#names + 1] = n end
		end
	else
		local pat = "^" .. target:gsub("[%^%$%(%)%%%.%[%]%+%-%?]", "%%%0"):gsub("%*", ".*") .. "$"
		for _, n in ipairs(C.names) do
			if n:match(pat) then names[#names + 1] = n end
		end
	end
	if not names[1] then fail("bad condition '%s': '%s' names no selection", shown(C.text), shown(target)) end
	return names
end

local function ref(C, name)
	if not C.sel[name] then fail("bad condition '%s': no selection '%s'", shown(C.text), shown(name)) end
	return function(ev, memo)
		local v = memo[name]
		if v == nil then
			v = C.sel[name](ev)
			memo[name] = v
		end
		return v
	end
end

-- `1 of X`, `any of X`, `all of X`
local function quantified(C, q)
	local target = C.toks[C.pos + 1]
	if not target or target == "(" or target == ")" then fail("bad condition '%s': '%s of' what?", shown(C.text), q) end
	C.pos = C.pos + 2
	local refs = {}
	for i, n in ipairs(selected(C, target)) do refs[i] = ref(C, n) end
	local all = q:lower() == "all"
	return function(ev, memo)
		for _, r in ipairs(refs) do
			if r(ev, memo) == not all then return not all end
		end
		return all
	end
end

local function parse_not(C)
	local t = C.toks[C.pos]
	if t == nil then fail("bad condition '%s': it ends too soon", shown(C.text)) end
	C.pos = C.pos + 1
	local lt = t:lower()
	if lt == "not" then
		C.depth = C.depth + 1
		if C.depth > 64 then fail("bad condition '%s': nested too deep", shown(C.text)) end
		local inner = parse_not(C)
		C.depth = C.depth - 1
		return function(ev, memo) return not inner(ev, memo) end
	elseif t == "(" then
		local inner = parse_or(C)
		if C.toks[C.pos] ~= ")" then fail("bad condition '%s': missing )", shown(C.text)) end
		C.pos = C.pos + 1
		return inner
	elseif (lt == "1" or lt == "any" or lt == "all") and (C.toks[C.pos] or ""):lower() == "of" then
		return quantified(C, t)
	elseif t == ")" or lt == "and" or lt == "or" or lt == "of" or lt == "them" then
		fail("bad condition '%s': unexpected '%s'", shown(C.text), shown(t))
	end
	return ref(C, t)
end

local function parse_and(C)
	local left = parse_not(C)
	while (C.toks[C.pos] or ""):lower() == "and" do
		C.pos = C.pos + 1
		local a, b = left, parse_not(C)
		left = function(ev, memo) return a(ev, memo) and b(ev, memo) end
	end
	return left
end

function parse_or(C)
	C.depth = C.depth + 1
	if C.depth > 64 then fail("bad condition '%s': nested too deep", shown(C.text)) end
	local left = parse_and(C)
	while (C.toks[C.pos] or ""):lower() == "or" do
		C.pos = C.pos + 1
		local a, b = left, parse_and(C)
		left = function(ev, memo) return a(ev, memo) or b(ev, memo) end
	end
	C.depth = C.depth - 1
	return left
end

-- one condition: function(event, memo) -> boolean
local function condition(text, sel, names)
	if #text > 4096 then fail("a condition longer than 4096 characters") end
	local C = { text = text, toks = tokens(text), pos = 1, depth = 0, sel = sel, names = names }
	local f = parse_or(C)
	if C.toks[C.pos] ~= nil then
		fail("bad condition '%s': unexpected '%s'", shown(text), shown(C.toks[C.pos]))
	end
	return f
end

-- the detection: its selections and its condition(s), as one predicate
local function detection(det, cat)
	if not is_map(det) then fail("a rule needs a detection (a map)") end
	if det.timeframe ~= nil then fail("timeframe (an aggregation) is not supported") end
	local cond = det.condition
	if is_null(cond) then fail("the detection has no condition") end
	local sel, names = {}, {}
	for _, name in ipairs(sorted_keys(det)) do
		if name ~= "condition" then
			sel[name], names[#names + 1] = selection(name, det[name], cat), name
		end
	end
	local conds = {}
	for i, c in ipairs(is_seq(cond) and cond or { cond }) do
		if type(c) ~= "string" then fail("a condition must be text or a list of texts") end
		conds[i] = condition(c, sel, names)
	end
	if not conds[1] then fail("the detection has no condition") end
	return function(ev)
		for _, c in ipairs(conds) do
			if c(ev, {}) then return true end
		end
		return false
	end
end

---------------------------------------------------------------------------
-- Events from the facts
---------------------------------------------------------------------------

local function str(n)
	if n == nil then return nil end
	return tostring(math.tointeger(n) or n)
end

local function new_event(t)
	for k, v in pairs(t) do
		if type(v) ~= "string" then t[k] = tostring(v) end
	end
	t[LOWER] = {}
	return t
end

local BUILD = {}

function BUILD.process_creation(F)
	local out = {}
	for _, x in ipairs(F.execs or {}) do
		out[#out + 1] = new_event {
			Image = x.image, CommandLine = x.cmdline, ParentImage = x.parent_image,
			ParentCommandLine = x.parent_cmdline, User = "sbx", CurrentDirectory = x.cwd,
			ProcessId = str(x.pid), ParentProcessId = str(x.ppid),
		}
	end
	return out
end

function BUILD.file_event(F)
	local out, seen = {}, {}
	local function add(path, image)
		local k = tostring(path) .. "\0" .. tostring(image)
		if type(path) == "string" and not seen[k] then
			seen[k] = true
			out[#out + 1] = new_event { TargetFilename = path, Image = image }
		end
	end
	for _, o in ipairs(F.opens or {}) do
		if o.write then add(o.path, o.image) end
	end
	for _, w in ipairs(F.written or {}) do add(w.path, w.image) end
	return out
end

function BUILD.network_connection(F)
	local out, seen = {}, {}
	local function add(c, image)
		local port = str(c.port)
		seen[("%s %s %s"):format(c.ip, port, c.protocol)] = true
		out[#out + 1] = new_event { DestinationIp = c.ip, DestinationPort = port,
			DestinationHostname = c.hostname, Image = image, Initiated = "true", Protocol = c.protocol }
	end
	for _, c in ipairs(F.connects or {}) do add(c, c.image) end
	for _, t in ipairs(F.traffic or {}) do
		if not seen[("%s %s %s"):format(t.ip, str(t.port), t.protocol)] then add(t, nil) end
	end
	return out
end

local cache = setmetatable({}, { __mode = "k" })

-- a category's events of a run's facts, made once per facts table
local function events_of(F, cat)
	local c = cache[F]
	if not c then
		c = {}
		cache[F] = c
	end
	if not c[cat] then c[cat] = BUILD[cat](F) end
	return c[cat]
end

---------------------------------------------------------------------------
-- Rules
---------------------------------------------------------------------------

-- a field's value in double quotes, escaped and cut
local function quoted(v)
	v = tostring(v)
	if #v > 200 then v = v:sub(1, 197) .. "..." end
	return '"' .. v:gsub('[%c"\\\127]', function(c)
		return c == '"' and '\\"' or c == "\\" and "\\\\" or ("\\x%02x"):format(c:byte())
	end) .. '"'
end

-- a field's value as quoted in a reason: bare when it is plain
local function quote(v)
	v = tostring(v)
	if #v <= 200 and v:match("^[%w%p\128-\255]+$") and not v:find('["\\]') then return v end
	return quoted(v)
end

local function evidence(cat, ev)
	local out = {}
	if cat == "process_creation" then
		out[1] = "Image=" .. quote(ev.Image or "?")
		out[2] = "CommandLine=" .. quoted(ev.CommandLine or "")
	elseif cat == "file_event" then
		out[1] = "TargetFilename=" .. quote(ev.TargetFilename)
		if ev.Image then out[2] = "Image=" .. quote(ev.Image) end
	else
		local ip = tostring(ev.DestinationIp)
		if ip:find(":") then ip = "[" .. ip .. "]" end
		out[1] = ("DestinationIp:Port=%s:%s"):format(quote(ip), ev.DestinationPort or "?")
		out[#out + 1] = ev.Protocol and "Protocol=" .. quote(ev.Protocol) or nil
		out[#out + 1] = ev.DestinationHostname and "DestinationHostname=" .. quote(ev.DestinationHostname) or nil
		out[#out + 1] = ev.Image and "Image=" .. quote(ev.Image) or nil
	end
	return table.concat(out, " ")
end

-- `attack.t1059.004` -> T1059.004; the first tactic tag
local function tags_of(tags)
	local attack, tactic = {}, nil
	if is_null(tags) then return attack end
	if not is_seq(tags) then fail("tags must be a list") end
	for _, t in ipairs(tags) do
		t = (text_of(t) or ""):lower()
		local id = t:match("^attack%.(t%d%d%d%d[%.%d]*)$")
		if id and id:match("^t%d%d%d%d$") or (id and id:match("^t%d%d%d%d%.%d%d%d$")) then
			attack[#attack + 1] = id:upper()
		else
			local name = t:match("^attack%.([%a_%-]+)$")
			name = name and name:gsub("_", "-")
			if name and TACTICS[name] then tactic = tactic or name end
		end
	end
	return attack, tactic
end

local function logsource(ls)
	if not is_map(ls) then fail("a rule needs a logsource (a map)") end
	local product, cat = text_of(ls.product), text_of(ls.category)
	if not product then fail("unsupported logsource: no product (only linux)") end
	if product:lower() ~= "linux" then fail("unsupported logsource: product '%s' (only linux)", shown(product)) end
	if not is_null(ls.service) then
		fail("unsupported logsource: service '%s' (only categories %s)", shown(text_of(ls.service) or "?"), CATEGORIES)
	end
	if not cat then fail("unsupported logsource: no category (only %s)", CATEGORIES) end
	if not FIELD_SET[cat] then fail("unsupported logsource: category '%s' (only %s)", shown(cat), CATEGORIES) end
	return cat
end

-- what the rest of a document says that this engine does not read
local function refuse_kind(doc)
	if not is_null(doc.correlation) then fail("correlation rules are not supported") end
	if not is_null(doc.filter) then fail("Sigma filters are not supported") end
	if not is_null(doc.action) then fail("rule collections (action: %s) are not supported", shown(text_of(doc.action) or "?")) end
	local status = text_of(doc.status)
	if status and status:lower() == "unsupported" then fail("the rule's status is 'unsupported'") end
end

-- the rule's fn
local function rule_fn(cat, pred, head, severity, verdict, attack)
	return function(run, F)
		F = F or facts.of(run)
		re_steps = M.MAX_STEPS
		local first, n = nil, 0
		for _, ev in ipairs(events_of(F, cat)) do
			if pred(ev) then first, n = first or ev, n + 1 end
		end
		if not first then return nil end
		return { verdict = verdict, severity = severity, count = n,
			attack = attack[1] and { table.unpack(attack) } or nil,
			reason = head .. evidence(cat, first) .. (n > 1 and (" (%d in all)"):format(n) or "") }
	end
end

-- one document's rule (raises `{ why = }`)
local function compile_doc(doc, info)
	if not is_map(doc) then fail(is_null(doc) and "an empty YAML document" or "a rule must be a YAML map") end
	info.title, info.id = text_of(doc.title), text_of(doc.id)
	refuse_kind(doc)
	if not info.title or info.title == "" then fail("a rule needs a title") end
	local level = text_of(doc.level) or "medium"
	if not LEVELS[level:lower()] then fail("unknown level '%s'", shown(level)) end
	local severity, verdict = table.unpack(LEVELS[level:lower()])
	local cat = logsource(doc.logsource)
	local pred = detection(doc.detection, cat)
	local attack, tactic = tags_of(doc.tags)
	local name = "sigma." .. (info.id or info.title):gsub("[^%w_.-]+", "_")
	local desc = text_of(doc.description)
	local head = ("sigma %s%s: "):format(info.title, info.id and (" (%s)"):format(info.id) or "")
	return {
		name = name, doc = info.title .. (desc and ". " .. desc or ""), attack = attack,
		severity = severity, tactic = tactic, fn = rule_fn(cat, pred, head, severity, verdict, attack),
	}
end

--- Compiles the Sigma rules of one file.
-- @tparam string text the file's YAML (one rule per document, `---`
--  between them)
-- @tparam[opt] string source its name in messages (the path)
-- @return a list of verdict rules (`sbx.verdict`: `name` `sigma.<id or
--  title>`, `doc`, `attack`, `severity`, `tactic`, `fn(run, facts)`
--  returning a finding with the first matching event quoted and `count`,
--  how many matched), and the list of rules not supported, each `{ source
--  =, title =, id =, why = }` (a malformed file is one entry); raises only
--  for misuse
function M.compile(text, source)
	if type(text) ~= "string" then
		error(("bad argument #1 to 'compile' (string expected, got %s)"):format(type(text)), 2)
	end
	if source ~= nil and type(source) ~= "string" then
		error(("bad argument #2 to 'compile' (string expected, got %s)"):format(type(source)), 2)
	end
	source = source or "?"
	re_budget = M.MAX_REGEX
	local rules, skipped, names = {}, {}, {}
	local docs, why = documents(text)
	if not docs then return rules, { { source = source, why = why } } end
	for _, doc in ipairs(docs) do
		local info = {}
		local ok, r = pcall(compile_doc, doc, info)
		if ok and names[r.name] then ok, r = false, { why = ("a second rule named %s in the file"):format(r.name) } end
		if ok then
			rules[#rules + 1], names[r.name] = r, true
		elseif type(r) == "table" or not interrupted(r) then
			-- an error of this module's own is the rule's skip too, named
			local msg = type(r) == "table" and r.why or "internal error: " .. tostring(r)
			skipped[#skipped + 1] = { source = source, title = info.title, id = info.id, why = msg }
		else
			error(r, 0)
		end
	end
	return rules, skipped
end

return M
