-- SPDX-License-Identifier: MIT
--- sbx._sigma_regex: the regular expressions of Sigma's `|re` modifier
-- (private to lua/sbx; `sbx.sigma.regex` is the public face).
--
-- The common subset of PCRE the specification names (literals, `.`,
-- classes, `^`, `$`, `*`, `+`, `?`, `{n,m}`, `|`, groups), escapes
-- `\d \w \s \D \W \S \b \B \t \n \r \xHH` and escaped punctuation, a
-- leading `(?i)`, `(?m)`, `(?s)`; compiled to a program run by a Pike
-- virtual machine: every thread in step, one byte at a time, so that the
-- time is linear in the text whatever the expression.  Two bounds hold a
-- hostile expression: the instructions the programs of one file may take
-- (`set_budget`), and the steps the matches of one rule may take over one
-- run (`set_steps`).
-- @module sbx._sigma_regex
local util = require "sbx._sigma_util"

local fail, shown, char_len = util.fail, util.shown, util.char_len

local M = {}

local SET, SPLIT, JMP, MATCH, BOL, EOL, WB, NWB = 1, 2, 3, 4, 5, 6, 7, 8
local MAX_PROG, MAX_COUNT, MAX_GROUPS = 2000, 1000, 64

-- what is left of the instructions while a file is compiled, and of the
-- steps while a rule runs, with the bounds they started from (nil: no
-- bound)
local re_budget, re_steps, budget_max, steps_max

--- Bounds the instructions that the programs compiled from now on may
-- take in all; past them `compile` raises.
-- @tparam[opt] integer n the bound (nil: none)
function M.set_budget(n) re_budget, budget_max = n, n end

--- Bounds the steps (a thread reading a byte) that the matches run from
-- now on may take in all; past them `find` raises.
-- @tparam[opt] integer n the bound (nil: none)
function M.set_steps(n) re_steps, steps_max = n, n end

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
-- (UTF-8: `\xe9` is U+00E9, as PCRE reads it in UTF mode)
local function hex_escape(P)
	local h = P.s:match("^%x%x", P.i)
	if h then
		P.i = P.i + 2
		return utf8.char(tonumber(h, 16))
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

local gen, gen_folded

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

-- The forms of a non-ASCII character matched case-insensitively, as PCRE
-- folds them in UTF mode: Latin-1, Latin Extended-A and Cyrillic (nil:
-- a character of another script, or one Unicode folds with more than its
-- pair, such as U+00B5, U+00DF, U+0130, U+017F)
local function fold(cp)
	if cp == 0xB5 or cp == 0xDF or cp == 0x130 or cp == 0x131 or cp == 0x149 or cp == 0x17F then return nil end
	if cp < 0xC0 or cp == 0xD7 or cp == 0xF7 or cp == 0x138 then return { cp } end
	if cp <= 0xDE then return { cp, cp + 32 } end
	if cp <= 0xFE then return { cp, cp - 32 } end
	if cp == 0xFF or cp == 0x178 then return { 0xFF, 0x178 } end
	if (cp >= 0x139 and cp <= 0x148) or (cp >= 0x179 and cp <= 0x17E) then
		return { cp, cp % 2 == 1 and cp + 1 or cp - 1 }
	end
	if cp <= 0x17F then return { cp, cp ~ 1 } end
	if cp >= 0x400 and cp <= 0x40F then return { cp, cp + 0x50 } end
	if cp >= 0x410 and cp <= 0x42F then return { cp, cp + 0x20 } end
	if cp >= 0x430 and cp <= 0x44F then return { cp, cp - 0x20 } end
	if cp >= 0x450 and cp <= 0x45F then return { cp, cp - 0x50 } end
	return nil
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

-- a text with non-ASCII characters, case-insensitively: each character
-- as an alternation of its forms (`fold`)
function gen_folded(prog, text)
	local i = 1
	while i <= #text do
		local n = char_len(text, i)
		local ok, cp = pcall(utf8.codepoint, text, i)
		local forms = n == 1 and { { "text", text:sub(i, i) } } or {}
		if n > 1 then
			for _, c in ipairs(ok and fold(cp) or {}) do forms[#forms + 1] = { "text", utf8.char(c) } end
			if not forms[1] then
				fail("regex '%s': %s matched case-insensitively is not supported", shown(prog.source),
					ok and ("U+%04X"):format(cp) or "an invalid UTF-8 sequence")
			end
		end
		-- an ASCII byte folds as ever, the forms of a character are literal
		gen(prog, #forms == 1 and forms[1] or { "alt", forms }, n == 1)
		i = i + n
	end
end

function gen(prog, node, ci)
	local k = node[1]
	-- a SET's third field: it reads the rest of a character (a
	-- continuation byte), the only reading inside one
	if k == "byte" then
		emit(prog, SET, node[2], node[2] == CONT or nil)
	elseif k == "char" then
		emit(prog, SET, node[2])
		gen_rep(prog, { "byte", CONT }, 0, nil)
	elseif k == "text" and ci and node[2]:find("[\128-\255]") then
		gen_folded(prog, node[2])
	elseif k == "text" then
		for i = 1, #node[2] do
			local b = node[2]:byte(i)
			emit(prog, SET, byte_set(b, ci), b >= 0x80 and b <= 0xBF or nil)
		end
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

--- A regular expression as a program for `find`.
-- @tparam string s the expression (the subset above)
-- @tparam[opt] table flags `i`, `m`, `s` set to true (the `re`
--  sub-modifiers)
-- @return the program; raises `{ why = }` (`sbx._sigma_util.fail`) for an
--  expression it cannot translate, or past the budget
function M.compile(s, flags)
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
			fail("regex '%s': the file's regular expressions take over %d instructions", shown(s), budget_max)
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
	-- as PCRE: (?m)^ holds after a newline, but not after the last byte
	if op == BOL then return i == 1 or (m and s:byte(i - 1) == 10 and i <= #s) end
	if op == EOL then
		return i == #s + 1 or (s:byte(i) == 10 and (m or i == #s))
	end
	local boundary = is_word(s, i - 1) ~= is_word(s, i)
	if op == WB then return boundary end
	return not boundary
end

-- whether i is inside a UTF-8 character (a continuation byte after a
-- byte of a sequence): no position of the text, where only the rest of
-- the character may be read
local function inside(s, i)
	local b = s:byte(i)
	return b ~= nil and b >= 0x80 and b <= 0xBF and (s:byte(i - 1) or 0) >= 0x80
end

-- Adds the thread at pc (and those it leads to without reading) to list,
-- which holds n threads: the new n, or -1 when one of them matches.
-- seen[pc] == gen_id: already added; mid: i is inside a character.
-- STACK is scratch (no call nests).
local STACK = {}

local function add_thread(prog, list, n, seen, gen_id, pc, s, i, mid)
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
				if not mid or ins[3] then
					n = n + 1
					list[n] = p
				end
			elseif op == MATCH then
				if not mid then return -1 end
			elseif op == JMP then
				top = top + 1
				stack[top] = ins[2]
			elseif op == SPLIT then
				stack[top + 1], stack[top + 2] = ins[3], ins[2]
				top = top + 2
			elseif not mid and holds(op, s, i, prog.m) then
				top = top + 1
				stack[top] = p + 1
			end
		end
	end
	return n
end

--- Whether a program matches somewhere in a text: every thread in step,
-- one byte at a time (time O(#s * #prog)), a new one started at each byte.
-- @param prog a program of `compile`
-- @tparam string s the text
-- @treturn boolean; raises (a string) past the bound of `set_steps`
function M.find(prog, s)
	local seen, cur, nxt = {}, {}, {}
	local n = add_thread(prog, cur, 0, seen, 1, 1, s, 1, false)
	if n < 0 then return true end
	for i = 1, #s do
		if re_steps then
			re_steps = re_steps - n - 1
			if re_steps < 0 then error(("sigma: regular expressions took over %d steps"):format(steps_max), 0) end
		end
		local b, m, mid = s:byte(i), 0, inside(s, i + 1)
		for k = 1, n do
			local p = cur[k]
			if prog[p][2][b] then
				m = add_thread(prog, nxt, m, seen, i + 1, p + 1, s, i + 1, mid)
				if m < 0 then return true end
			end
		end
		m = add_thread(prog, nxt, m, seen, i + 1, 1, s, i + 1, mid)
		if m < 0 then return true end
		cur, nxt, n = nxt, cur, m
	end
	return false
end

return M
