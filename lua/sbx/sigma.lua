-- SPDX-License-Identifier: MIT
--- sbx.sigma: Sigma detection rules (YAML, the SigmaHQ specification) as
-- verdict rules (`sbx.verdict`) over a run's facts (`sbx.facts`).
--
-- A Sigma rule is read when its `logsource` is `product: linux` with one
-- of three categories, with `service: auditd` (the records auditd would
-- have written, made in `sbx._sigma_auditd`: SYSCALL, EXECVE, PATH, CWD,
-- PROCTITLE, SOCKADDR), or with neither (keywords only, over each command
-- line and each line of the scripts of `facts.scripts` where the facts
-- hold them); keywords (a list of values, or a map keyed `|all` or
-- `|mods`) match anywhere in an event's text.  The categories are matched
-- against events made from the facts:
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
-- expressions (`|re`) run on a matcher of sbxlua's own (`M.regex`, made in
-- `sbx._sigma_regex`: a Pike virtual machine, time linear in the text
-- whatever the expression), each rule within `M.MAX_STEPS` a run.  A
-- condition holds of one event at a time; a rule's finding quotes the
-- first event it holds of, and counts them.  Everything else is refused
-- rule by rule, never ignored: `compile` returns the rules it could not
-- read, each with its reason.
--
-- Rule files are hostile input too: the YAML is walked once by libyaml's
-- event parser (lua-yaml, in `sbx._sigma_yaml`) before it is loaded, and
-- refused when it nests deeper than `M.MAX_DEPTH` or holds more than
-- `M.MAX_NODES` nodes once its aliases are expanded (a "billion laughs"),
-- or an alias of itself.  Wildcards and the modifiers that transform
-- values are in `sbx._sigma_glob`.
-- @module sbx.sigma
local attack_table = require "sbx.attack"
local facts = require "sbx.facts"
local util = require "sbx._sigma_util"
local yaml = require "sbx._sigma_yaml"
local regex = require "sbx._sigma_regex"
local glob = require "sbx._sigma_glob"
local auditd = require "sbx._sigma_auditd"
local sigma_events = require "sbx._sigma_events"
local escape = require("sbx.report").escape
local argcheck = require("sbx._arg").check

local fail, interrupted, shown = util.fail, util.interrupted, util.shown
local ip_bytes, parse_cidr, in_net = util.ip_bytes, util.parse_cidr, util.in_net
local is_null, is_seq, is_map, text_of = yaml.is_null, yaml.is_seq, yaml.is_map, yaml.text_of
local TRANSFORM = glob.TRANSFORM

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
	-- `service: auditd`: the records' fields (and a0..aN), in sbx._sigma_auditd
	auditd = auditd.FIELDS,
	-- `product: linux` alone: keywords only, over command and script lines
	keywords = {},
}

-- the field a keyword is matched against (no field's name holds a `|`)
local KW = auditd.TEXT

-- the log sources whose rules may hold keywords
local KEYWORDS_OK = { auditd = true, keywords = true }

--- The value modifiers understood (`re|i`, `re|m`, `re|s`: `re` and its
-- flags, also spelt `re|ignorecase`, `re|multiline`, `re|dotall`;
-- `base64` and `base64offset` values match case-sensitively).
M.MODIFIERS = { "contains", "startswith", "endswith", "all", "cased", "windash", "base64",
	"base64offset", "re", "re|i", "re|m", "re|s", "re|ignorecase", "re|multiline", "re|dotall", "cidr",
	"exists", "lt", "lte", "gt", "gte" }

-- the re sub-modifiers, by their spellings
local RE_FLAGS = { i = "i", m = "m", s = "s", ignorecase = "i", multiline = "m", dotall = "s" }

-- the specification's modifiers that are not understood here
local UNSUPPORTED = { utf16le = true, utf16be = true, utf16 = true, wide = true, expand = true,
	fieldref = true, neq = true, minute = true, hour = true, day = true, week = true,
	month = true, year = true }

local CATEGORIES = "process_creation, file_event, network_connection"
local SOURCES = "categories " .. CATEGORIES .. ", service auditd, or keywords with no category"

-- level: severity and verdict
local LEVELS = {
	informational = { 1, "info" }, low = { 3, "suspicious" }, medium = { 5, "suspicious" },
	high = { 7, "malicious" }, critical = { 9, "malicious" },
}

-- the tactics' tags: ATT&CK's current ones (sbx.attack), and
-- `defense-evasion`, split in v19 into stealth and defense-impairment
local TACTICS = { ["defense-evasion"] = true }
for _, t in ipairs(attack_table.tactics()) do TACTICS[t] = true end

local NUMERIC = { ProcessId = true, ParentProcessId = true, DestinationPort = true }

local FIELD_SET = {}
for cat, list in pairs(M.FIELDS) do
	FIELD_SET[cat] = {}
	for _, f in ipairs(list) do FIELD_SET[cat][f] = true end
end

--- How many instructions the regular expressions of one file may take
-- in all (each takes at most 2000).
M.MAX_REGEX = 50000
--- How many steps (a thread reading a byte) the regular expressions of
-- one rule may take over one run: past them the rule raises (and
-- `sbx.verdict` reports the rule's error), so that a hostile expression
-- cannot hold the verdict.
M.MAX_STEPS = 5000000

--- A regular expression as a matcher.
-- @tparam string s the expression (the PCRE subset of the specification)
-- @tparam[opt] string flags letters `i`, `m`, `s`
-- @return a function(text) → boolean, or nil, why
function M.regex(s, flags)
	argcheck(s, "string", 1, "regex")
	local f = {}
	for c in (flags or ""):gmatch(".") do f[c] = true end
	regex.set_budget(nil)
	regex.set_steps(nil)
	local ok, prog = pcall(regex.compile, s, f)
	if not ok then
		if type(prog) == "table" then return nil, prog.why end
		error(prog, 0)
	end
	return function(text) return regex.find(prog, text) end
end

---------------------------------------------------------------------------
-- Field matchers: function(event) -> boolean
---------------------------------------------------------------------------

local lowered = sigma_events.lowered

-- a test of one glob
local function glob_test(field, g, cased)
	local numeric = NUMERIC[field] and not glob.has_wildcard(g) and tonumber(glob.text(g))
	cased = cased or g.cased
	local segs = glob.segments(cased and g or glob.lower(g))
	local exact = #segs == 1 and #segs[1] <= 1 and type(segs[1][1] or "") == "string" and (segs[1][1] or "")
	return function(ev)
		local v = ev[field]
		if v == nil then return false end
		if numeric and tonumber(v) == numeric then return true end
		v = cased and v or lowered(ev, field)
		if exact then return v == exact end
		return glob.match(segs, v)
	end
end

-- the tests of one plain value: its globs after the transformations
-- a test true when any (all) of tests is true of an event
local function any_of(tests)
	return function(ev)
		for _, t in ipairs(tests) do
			if t(ev) then return true end
		end
		return false
	end
end

local function all_of(tests)
	return function(ev)
		for _, t in ipairs(tests) do
			if not t(ev) then return false end
		end
		return true
	end
end

local function plain_tests(field, spec, v)
	local globs = { glob.parse(v) }
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
	return any_of(tests)
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
		local prog = regex.compile(s, spec.flags)
		local find = regex.find
		return function(ev) return ev[field] ~= nil and find(prog, ev[field]) end
	elseif kind == "cidr" then
		local net = parse_cidr(s)
		return function(ev) return in_net(ip_bytes(ev[field]), net) end
	elseif CMP[kind] then
		local n = tonumber(s)
		if not n then fail("modifier '%s' needs a number, not '%s'", kind, shown(s)) end
		local op = CMP[kind]
		return function(ev) local x = tonumber(ev[field]); return x ~= nil and op(x, n) end
	end
	-- an empty value under contains, startswith, endswith or base64
	-- matches every event (lua-yaml ends a string at a NUL: "\0abc" is "")
	if s == "" and #spec.transforms > 0 then
		fail("an empty value with modifiers would match every event (field %s)", field)
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
		elseif special == "re" and RE_FLAGS[m] then spec.flags[RE_FLAGS[m]] = true
		elseif m == "" then fail("an empty modifier in '%s'", shown(key))
		elseif UNSUPPORTED[m] then fail("unsupported modifier '%s'", shown(m))
		elseif TRANSFORM[m] or SPECIAL[m] or m == "cased" then
			fail("modifier '%s' cannot be combined with the others of '%s'", m, shown(key))
		else fail("unknown modifier '%s'", shown(m)) end
	end
	return spec
end

local function known_field(cat, field)
	if cat == "auditd" then return auditd.is_field(field) end
	return FIELD_SET[cat][field]
end

-- `key`: a SYSCALL record one of the audit rules of the rule's
-- definition would have written with that key
local function key_test(spec, v, X)
	if spec.kind ~= "plain" or spec.transforms[1] or spec.cased then fail("key takes plain values") end
	local k = text_of(v)
	local rules = k and X.keys[k]
	if not rules then
		fail("key '%s': no audit rule of the rule's definition sets it (only -w and -S rules)", shown(k or "?"))
	end
	return function(ev) return auditd.has_key(rules, ev) end
end

-- the matcher of one `Field|mods: values` of a selection (X: the rule's
-- log source, `{ cat =, keys =, types = }`); a keyword's field is ""
local function field_matcher(key, value, X)
	local spec = parse_key(key)
	local field, cat = spec.field, X.cat
	if field == "" then
		field, spec.field = KW, KW
		-- anywhere in the text, unless a modifier places it
		local placed = false
		for _, t in ipairs(spec.transforms) do
			placed = placed or t == "contains" or t == "startswith" or t == "endswith"
		end
		if spec.kind == "plain" and not placed then spec.transforms[#spec.transforms + 1] = "contains" end
	elseif not known_field(cat, field) then
		fail("unknown field '%s' for %s", shown(field), cat == "auditd" and "service auditd" or "category " .. cat)
	end
	local values = is_seq(value) and value or { value }
	if type(value) == "table" and not is_null(value) and not is_seq(value) then
		fail("the value of field %s must be a scalar or a list of scalars", spec.field == KW and "keywords" or field)
	end
	if not values[1] then fail("an empty list of values for field %s", field) end
	local tests = {}
	for i, v in ipairs(values) do
		if cat == "auditd" and field == "key" then
			tests[i] = key_test(spec, v, X)
		else
			tests[i] = value_test(field, spec, v)
		end
		if cat == "auditd" and field == "type" then X.types[#X.types + 1] = text_of(v) or "?" end
	end
	if spec.all then
		return all_of(tests)
	end
	return any_of(tests)
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

local function keyword(name, X)
	if not KEYWORDS_OK[X.cat] then
		fail("keyword selection '%s' (values without a field) is not supported in category %s", shown(name), X.cat)
	end
end

-- a map of fields: an AND; a key "" or `|mods` is a keyword's
local function map_matcher(name, map, X)
	local tests = {}
	for _, key in ipairs(sorted_keys(map)) do
		if key == "" or key:sub(1, 1) == "|" then keyword(name, X) end
		tests[#tests + 1] = field_matcher(key, map[key], X)
	end
	return all_of(tests)
end

-- a selection: a map (AND of its fields), a list of maps (OR), or
-- keywords (a value or a list of values: OR)
local function selection(name, body, X)
	if is_map(body) then return map_matcher(name, body, X) end
	if is_null(body) or (is_seq(body) and not body[1]) then fail("selection '%s' is empty", shown(name)) end
	if not is_seq(body) or not is_map(body[1]) then
		keyword(name, X)
		return field_matcher("", body, X)
	end
	local alts = {}
	for i, m in ipairs(body) do
		if not is_map(m) then fail("selection '%s' mixes maps and keywords", shown(name)) end
		alts[i] = map_matcher(name, m, X)
	end
	return any_of(alts)
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

-- operands of parse joined by the keyword op ("and", "or"), left to right
local function parse_chain(C, op, parse)
	local left = parse(C)
	while (C.toks[C.pos] or ""):lower() == op do
		C.pos = C.pos + 1
		local a, b = left, parse(C)
		if op == "and" then
			left = function(ev, memo) return a(ev, memo) and b(ev, memo) end
		else
			left = function(ev, memo) return a(ev, memo) or b(ev, memo) end
		end
	end
	return left
end

local function parse_and(C)
	return parse_chain(C, "and", parse_not)
end

function parse_or(C)
	C.depth = C.depth + 1
	if C.depth > 64 then fail("bad condition '%s': nested too deep", shown(C.text)) end
	local left = parse_chain(C, "or", parse_and)
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
local function detection(det, X)
	if not is_map(det) then fail("a rule needs a detection (a map)") end
	if det.timeframe ~= nil then fail("timeframe (an aggregation) is not supported") end
	local cond = det.condition
	if is_null(cond) then fail("the detection has no condition") end
	local sel, names = {}, {}
	for _, name in ipairs(sorted_keys(det)) do
		if name ~= "condition" then
			sel[name], names[#names + 1] = selection(name, det[name], X), name
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
	elseif cat == "auditd" then
		out[1] = "type=" .. ev.type
		out[2] = (ev.type == "EXECVE" and "command line=" or "record=") .. quoted(ev[KW] or "")
	elseif cat == "keywords" then
		out[1] = ev["|what"] .. "=" .. quoted(ev[KW])
		out[2] = ev["|image"] and "Image=" .. quote(ev["|image"]) or nil
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

-- a tag's technique id as the current release names it: a revoked id's
-- successor, a deprecated or unknown one none; `notes` says each change
local function current_id(id, attack, notes)
	local cur, changed = attack_table.current(id)
	if cur and changed then notes[#notes + 1] = ("%s is now %s"):format(id, cur) end
	if not cur then
		local _, why = attack_table.technique(id)
		notes[#notes + 1] = ("%s is %s in ATT&CK %s"):format(id, why, attack_table.version)
		return
	end
	for _, a in ipairs(attack) do
		if a == cur then return end
	end
	attack[#attack + 1] = cur
end

-- `attack.t1059.004` -> T1059.004 (or its successor); the first tactic
-- tag, `defense-evasion` as the first technique's tactic (else stealth,
-- TA0005's name since v19); the notes on ids changed
local function tags_of(tags)
	local attack, tactic, notes = {}, nil, {}
	if is_null(tags) then return attack, nil, notes end
	if not is_seq(tags) then fail("tags must be a list") end
	for _, t in ipairs(tags) do
		t = (text_of(t) or ""):lower()
		local id = t:match("^attack%.(t%d%d%d%d[%.%d]*)$")
		if id and id:match("^t%d%d%d%d$") or (id and id:match("^t%d%d%d%d%.%d%d%d$")) then
			current_id(id:upper(), attack, notes)
		else
			local name = t:match("^attack%.([%a_%-]+)$")
			name = name and name:gsub("_", "-")
			if name and TACTICS[name] then tactic = tactic or name end
		end
	end
	if tactic == "defense-evasion" then
		local first = attack[1] and attack_table.technique(attack[1])
		tactic = first and first.tactics[1] or "stealth"
	end
	return attack, tactic, notes
end

-- the services of Linux whose logs the box has no counterpart of: each
-- logs what a daemon (or a scanner) saw, which a sample does not run
local NO_LOG = {
	sshd = "sshd's log of logins", vsftpd = "vsftpd's log", syslog = "the system log",
	guacamole = "Guacamole's log", clamav = "ClamAV's scan log", cron = "cron's log",
	auth = "the authentication log", sudo = "sudo's log", modsecurity = "ModSecurity's log",
}

-- the host log files of those services, as a rule's definition names
-- the log it reads (a rule of no service may say so only there)
local LOG_FILES = { ["/var/log/auth.log"] = "auth", ["/var/log/secure"] = "auth", ["/var/log/syslog"] = "syslog",
	["/var/log/messages"] = "syslog", ["/var/log/cron"] = "cron", ["/var/log/vsftpd.log"] = "vsftpd" }

-- a rule of no service whose definition says it reads a log of LOG_FILES
local function log_file_source(definition)
	for file in (text_of(definition) or ""):gmatch("/var/log/[%w%.%-_/]*[%w]") do
		local service = LOG_FILES[file]
		if service then
			fail("unsupported logsource: its definition reads %s (%s: the box runs no such service)", file,
				NO_LOG[service])
		end
	end
end

-- the rule's log source: `{ cat =, keys =, types = }`
local function logsource(ls)
	if not is_map(ls) then fail("a rule needs a logsource (a map)") end
	local product, cat = text_of(ls.product), text_of(ls.category)
	if not product then fail("unsupported logsource: no product (only linux)") end
	if product:lower() ~= "linux" then fail("unsupported logsource: product '%s' (only linux)", shown(product)) end
	local service = not is_null(ls.service) and (text_of(ls.service) or "?")
	if service and (service:lower() ~= "auditd" or cat) then
		local why = NO_LOG[service:lower()]
		fail("unsupported logsource: service '%s'%s (only %s)", shown(service),
			why and " (" .. why .. ": the box runs no such service)" or "", SOURCES)
	end
	if service then return { cat = "auditd", keys = auditd.keys(text_of(ls.definition)), types = {} } end
	log_file_source(ls.definition)
	if not cat then return { cat = "keywords", types = {} } end
	if not FIELD_SET[cat] or cat == "auditd" or cat == "keywords" then
		fail("unsupported logsource: category '%s' (only %s)", shown(cat), SOURCES)
	end
	return { cat = cat, types = {} }
end

-- an auditd rule that names record types: one of them must be made
local function check_types(X)
	if X.cat ~= "auditd" or not X.types[1] then return end
	for _, t in ipairs(X.types) do
		if auditd.is_type(t) then return end
	end
	fail("auditd record type %s: the box makes no such record (only %s)",
		shown(table.concat(X.types, ", ")), table.concat(auditd.TYPES, ", "))
end

-- what the rest of a document says that this engine does not read
local function refuse_kind(doc)
	if not is_null(doc.correlation) then fail("correlation rules are not supported") end
	if not is_null(doc.filter) then fail("Sigma filters are not supported") end
	if not is_null(doc.action) then fail("rule collections (action: %s) are not supported", shown(text_of(doc.action) or "?")) end
	local status = text_of(doc.status)
	if status and status:lower() == "unsupported" then fail("the rule's status is 'unsupported'") end
end

-- text the box made, as JSON may hold it: as it is when it is UTF-8 with
-- no control byte (the events' paths and arguments are cleaned so), else
-- escaped as the report escapes text; cut at 512 bytes
local function clean(v)
	local t = tostring(v)
	if not utf8.len(t) or t:find("[%c\127]") then t = escape(t) end
	return #t > 512 and t:sub(1, 509) .. "..." or t
end

-- An event's fields as VirusTotal's match_context holds them: `{ values =
-- { field = text } }` (`clean`); the engine's own keys (`|...`) left out.
local function match_context(ev)
	local values = {}
	for k, v in pairs(ev) do
		if type(k) == "string" and k ~= "" and k:sub(1, 1) ~= "|" and (type(v) == "string" or type(v) == "number") then
			values[clean(k)] = clean(v)
		end
	end
	return { { values = values } }
end

-- the rule's fn; a finding carries `sigma`, the rule and its first event
-- in VirusTotal's shape (sbx.verdict gathers them: sigma_analysis_results)
local function rule_fn(cat, pred, head, severity, verdict, attack, meta)
	return function(run, F)
		F = F or facts.of(run)
		regex.set_steps(M.MAX_STEPS)
		local first, n = nil, 0
		for _, ev in ipairs(sigma_events.of(F, cat)) do
			if pred(ev) then first, n = first or ev, n + 1 end
		end
		if not first then return nil end
		local sigma = { match_context = match_context(first) }
		for k, v in pairs(meta) do sigma[k] = v end
		return { verdict = verdict, severity = severity, count = n,
			attack = attack[1] and { table.unpack(attack) } or nil, sigma = sigma,
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
	local X = logsource(doc.logsource)
	local cat = X.cat
	local pred = detection(doc.detection, X)
	check_types(X)
	local attack, tactic, notes = tags_of(doc.tags)
	local name = "sigma." .. (info.id or info.title):gsub("[^%w_.-]+", "_")
	local desc = text_of(doc.description)
	local head = ("sigma %s%s%s: "):format(info.title, info.id and (" (%s)"):format(info.id) or "",
		#notes > 0 and (" [%s]"):format(table.concat(notes, "; ")) or "")
	local meta = { rule_title = clean(info.title), rule_id = info.id and clean(info.id) or nil,
		rule_level = level:lower(), rule_description = desc and clean(desc) or nil,
		rule_source = clean(info.source) }
	return {
		name = name, doc = info.title .. (desc and ". " .. desc or ""), attack = attack,
		severity = severity, tactic = tactic, fn = rule_fn(cat, pred, head, severity, verdict, attack, meta),
		sigma = true,
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
	argcheck(text, "string", 1, "compile")
	if source ~= nil and type(source) ~= "string" then
		error(("bad argument #2 to 'compile' (string expected, got %s)"):format(type(source)), 2)
	end
	source = source or "?"
	regex.set_budget(M.MAX_REGEX)
	local rules, skipped, names = {}, {}, {}
	local docs, why = yaml.documents(text, M)
	if not docs then return rules, { { source = source, why = why } } end
	for _, doc in ipairs(docs) do
		local info = { source = source }
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

