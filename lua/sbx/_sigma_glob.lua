-- SPDX-License-Identifier: MIT
--- sbx._sigma_glob: Sigma's values as wildcard patterns ("globs"), and
-- the modifiers that transform them (private to lua/sbx, for `sbx.sigma`).
--
-- A glob is a list of tokens: literal text, or one of three wildcards
-- (`*`; `?`, one character; a dash that `windash` stands for); its field
-- `cased` is true when it is matched case-sensitively.  A transformation
-- (`TRANSFORM.contains`, `startswith`, `endswith`, `windash`, `base64`,
-- `base64offset`) takes a glob and returns a list of globs (an OR).
-- @module sbx._sigma_glob
local util = require "sbx._sigma_util"

local fail, shown, char_len = util.fail, util.shown, util.char_len

local M = {}

local STAR, QMARK, DASH = { "*" }, { "?" }, { "windash" }

-- the dashes `windash` stands for: none is a prefix of another, so at a
-- place at most one of them matches
local DASHES = { "-", "/", "\u{2013}", "\u{2014}", "\u{2015}" }

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

--- A Sigma string as a glob: `*` and `?` are wildcards; a backslash
-- escapes `*`, `?` and itself, and is itself before anything else.
-- @tparam string s
-- @treturn table the glob
function M.parse(s)
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

--- Whether a glob has a wildcard (a token that is not text).
-- @tparam table g
-- @treturn boolean
function M.has_wildcard(g)
	for _, t in ipairs(g) do
		if type(t) ~= "string" then return true end
	end
	return false
end

--- A glob written back as text (each wildcard as itself).
-- @tparam table g
-- @treturn string
function M.text(g)
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

--- Whether s matches a compiled glob (its segments between stars): the
-- first anchored at the start, the last at the end, the others leftmost;
-- time in O(#s * #pattern), no backtracking past a star.
-- @tparam table segs the glob's `segments`
-- @tparam string s
-- @treturn boolean
function M.match(segs, s)
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

--- A glob with its text in lower case (ASCII letters).
-- @tparam table g
-- @treturn table
function M.lower(g)
	local out = {}
	for i, t in ipairs(g) do out[i] = type(t) == "string" and t:lower() or t end
	return out
end

--- A glob's segments between its stars, for `match`.
-- @tparam table g
-- @treturn table
function M.segments(g)
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

-- Transformations of values

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
	if M.has_wildcard(g) then fail("modifier '%s' on a value with wildcards ('%s')", mod, shown(M.text(g))) end
	return M.text(g)
end

--- The transformations, by modifier name: each takes a glob and returns
-- a list of globs; `base64` and `base64offset` raise `{ why = }` for a
-- glob with wildcards.
M.TRANSFORM = {}
local TRANSFORM = M.TRANSFORM

-- a glob with any text allowed before it (lead) and after it (tail)
local function starred(g, lead, tail)
	local out = { table.unpack(g) }
	if lead and out[1] ~= STAR then table.insert(out, 1, STAR) end
	if tail and out[#out] ~= STAR then out[#out + 1] = STAR end
	out.cased = g.cased
	return { out }
end

function TRANSFORM.contains(g)
	return starred(g, true, true)
end

function TRANSFORM.startswith(g)
	return starred(g, false, true)
end

function TRANSFORM.endswith(g)
	return starred(g, true, false)
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

return M
