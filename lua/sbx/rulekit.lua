-- SPDX-License-Identifier: MIT
--- sbx.rulekit: verdict rules written as the evidence that shows a
-- technique, for the rule library (`rules/*.lua`) and operators' rules
-- files, where it is given as `rulekit` (pure functions, nothing that
-- reaches outside the rule).
--
--     rulekit.technique {
--         id = "T1053.003", name = "cron", tactic = "persistence",
--         severity = 6, what = "installed a cron job",
--         write = { "^/etc/crontab$", "^/etc/cron%.d/" },
--         exec = { "^crontab [^-]" },
--     }
--
-- Each evidence key holds Lua patterns, tried in this order, and the first
-- match is quoted in the finding's reason (with how many more matched):
-- `exec` the command as run (the program's base name, a space, its
-- arguments: `crontab /tmp/x`), `cmdline` the whole argv joined (a
-- `sh -c` script's text too), `script` a logical line of a script an
-- interpreter ran (`facts.scripts`: a file, `-c`/`-e` text or stdin,
-- split at newlines, and for a shell at `;` outside quotes, with
-- backslash continuations joined and here-documents kept as their lines;
-- `not_by` holds for the interpreter's image), `write` a path opened for writing (tried:
-- the kernel's answer does not matter, the box's root is read-only), the
-- new name of a rename, a file or a link the box left, `read` a path
-- opened without a write flag, `delete` a path deleted or renamed away,
-- `change` a path whose mode, owner, times or attributes were changed,
-- `dns` a name looked up; `unless` patterns leave a match out (of every
-- source), `not_by` (a set of base names) an exec, open or attribute
-- change by a process running one of those programs (`chage` reads
-- /etc/shadow to do its own job).  `check = function(run, facts)` returns the
-- evidence as text itself (or nil).  A finding's verdict follows its
-- severity: 0 to 2 `info`, 3 to 6 `suspicious`, 7 and up `malicious`.
-- @module sbx.rulekit
local attack = require "sbx.attack"
local argcheck = require("sbx._arg").check

local M = {}

--- The verdict of a severity.
function M.verdict_of(severity)
	if severity <= 2 then return "info" end
	if severity <= 6 then return "suspicious" end
	return "malicious"
end

--- A path's last component.
function M.basename(p)
	return type(p) == "string" and (p:match("([^/]*)/*$") or p) or "?"
end

--- The command as run: the program's base name (argv[0]'s, else the
-- image's), a space, the arguments.
function M.command(x)
	local argv = x.argv or {}
	local out = { M.basename(argv[1] or x.image) }
	for i = 2, #argv do out[#out + 1] = argv[i] end
	return table.concat(out, " ")
end

local function any(s, pats)
	if not pats then return false end
	for _, p in ipairs(pats) do
		if s:find(p) then return true end
	end
	return false
end

--- Whether a text matches one of a list of Lua patterns.
-- @tparam string s
-- @tparam table pats
-- @treturn boolean
function M.matches(s, pats)
	argcheck(s, "string", 1, "matches")
	argcheck(pats, "table", 2, "matches")
	return any(s, pats)
end

-- The byte every match of Lua pattern p starts with: p anchored (`^`)
-- and its first item one plain character (or a `%` escape of one that is
-- not alphanumeric) that no `*`, `-` or `?` makes optional; else nil.
local function lead(p)
	if p:byte(1) ~= 94 then return nil end -- "^"
	local c, q = p:sub(2, 2), p:sub(3, 3)
	if c == "%" then
		c, q = p:sub(3, 3), p:sub(4, 4)
		if c == "" or c:find("^%w") then return nil end
	elseif c == "" or c:find("^[%^%$%*%+%-%?%.%(%)%[%]]") then
		return nil
	end
	if q == "*" or q == "-" or q == "?" then return nil end
	return c:byte()
end

-- pats by the first byte of a text: for each byte, in pats' order, the
-- patterns that can match a text starting with it (those whose `lead` is
-- that byte, and those that have none); `[0]` those for the empty text
-- and every other byte.  A pattern left out would have failed at its
-- first character, before reading any more of itself (lstrlib's match),
-- so a text finds the same patterns, in the same order, with the same
-- errors.  Made once a list (the rules' own, which do not change).
local INDEX = setmetatable({}, { __mode = "k" })
local function index_of(pats)
	local ix = INDEX[pats]
	if ix then return ix end
	local leads = {}
	ix = { [0] = {} }
	for i, p in ipairs(pats) do
		leads[i] = type(p) == "string" and lead(p) or nil
		if leads[i] then ix[leads[i]] = true end
	end
	for b in pairs(ix) do
		if b ~= 0 then ix[b] = {} end
	end
	for i, p in ipairs(pats) do
		for b, list in pairs(ix) do
			if not leads[i] or leads[i] == b then list[#list + 1] = p end
		end
	end
	INDEX[pats] = ix
	return ix
end

-- the texts of a source's facts (its `get` of each), and the base names
-- of their images: made once a run, for every rule
local TEXTS = setmetatable({}, { __mode = "k" })
local function texts_of(F, src)
	local per = TEXTS[F]
	if not per then
		per = {}
		TEXTS[F] = per
	end
	local t = per[src]
	if t then return t.texts, t.images, t.n end
	local texts, images, n = {}, {}, 0
	for i, v in ipairs(F[src[2]]) do
		texts[i] = src[3](v) -- nil for some (a read source's writes)
		images[i] = type(v) == "table" and M.basename(v.image) or false
		n = i
	end
	per[src] = { texts = texts, images = images, n = n }
	return texts, images, n
end

-- the first of the count texts (of a source's, `texts_of`) that matches
-- one of pats and none of unless, by a process whose image is not in
-- not_by, and how many matched; ix, pats' `index_of` (nil: each text
-- tries all of pats)
local function first(texts, images, count, pats, ix, unless, not_by)
	local hit, n = nil, 0
	for i = 1, count do
		local s = texts[i]
		local by = not_by and images[i] and not_by[images[i]]
		if type(s) == "string" and not any(s, unless) and not by then
			local try = pats
			if ix then try = ix[s:byte(1) or 0] or ix[0] end
			for _, p in ipairs(try) do
				if s:find(p) then
					hit, n = hit or s, n + 1
					break
				end
			end
		end
	end
	return hit, n
end

--- A call of a run that the box's profile refused, among a set of names,
-- as evidence: `called NAME (refused)` for the first, or nil.
-- @tparam table F the run's facts (`facts.refused`)
-- @tparam table names a set of call names (`{ reboot = true }`)
-- @treturn string|nil
function M.refused_call(F, names)
	if type(F) ~= "table" or type(F.refused) ~= "table" then
		error("bad argument #1 to 'refused_call' (a run's facts expected)", 2)
	end
	argcheck(names, "table", 2, "refused_call")
	for _, r in ipairs(F.refused) do
		if names[r.call] then return "called " .. r.call .. " (refused)" end
	end
	return nil
end

local function cut(s)
	if #s > 160 then return s:sub(1, 157) .. "..." end
	return s
end

-- the sources of evidence, in the order they are tried: key, the list of
-- facts, the text of one, how a match is quoted
local SOURCES = {
	{ "exec", "execs", M.command, "ran `%s`" },
	{ "cmdline", "execs", function(x) return x.cmdline end, "ran `%s`" },
	{ "script", "script_lines", function(l) return l.text end, "ran the script line `%s`" },
	{ "write", "writes", function(w) return w end, "wrote %s" },
	{ "read", "opens", function(o) return not o.write and o.path or nil end, "read %s" },
	{ "delete", "deletes", function(d) return d end, "deleted %s" },
	{ "change", "changed", function(c) return c.path end, "changed the attributes of %s" },
	{ "dns", "dns", function(d) return d.hostname end, "looked up %s" },
}

--- The paths a run tried to write (opens with a write flag whatever the
-- answer, renames' new names, files and links left), and deleted (deletes
-- and renames' old names), each once; cached in the facts.
function M.paths(F)
	if F.writes then return F end
	local w, d, seen = {}, {}, {}
	local function add(list, p)
		if type(p) == "string" and not seen[list][p] then
			seen[list][p] = true
			list[#list + 1] = p
		end
	end
	seen[w], seen[d] = {}, {}
	for _, o in ipairs(F.opens) do
		if o.write then add(w, o.path) end
	end
	for _, r in ipairs(F.renamed) do
		add(w, r.to)
		add(d, r.from)
	end
	for _, x in ipairs(F.written) do add(w, x.path) end
	for _, x in ipairs(F.deleted) do add(d, x.path) end
	F.writes, F.deletes = w, d
	return F
end

-- The script patterns that can match a line at all: one that finds
-- nothing in the run's script lines joined (its `^` and `$` dropped, so
-- a superset of what it matches in a line) matches none of them, and
-- the lines (up to 4 MiB of text a run) are not walked for it.
local function script_pats(F, pats)
	if not F.script_text then
		local t = {}
		for i, l in ipairs(F.script_lines or {}) do t[i] = l.text end
		F.script_text = table.concat(t, "\n")
	end
	local out = {}
	for _, p in ipairs(pats) do
		local loose = (p:gsub("^%^", ""):gsub("([^%%])%$$", "%1"))
		if F.script_text:find(loose) then out[#out + 1] = p end
	end
	return out
end

-- a spec's sources of evidence, those it has patterns for, in SOURCES'
-- order: `{ src, pats, ix }` (ix, `index_of`; none for scripts, whose
-- patterns are narrowed each run).  Made once a spec: a rule's spec is
-- read when the rule first runs, not changed after.
local PLANS = setmetatable({}, { __mode = "k" })
local function plan_of(spec)
	local plan = PLANS[spec]
	if plan then return plan end
	plan = {}
	for _, src in ipairs(SOURCES) do
		local pats = spec[src[1]]
		if pats and #pats > 0 then
			plan[#plan + 1] = { src, pats, src[1] ~= "script" and index_of(pats) or nil }
		end
	end
	PLANS[spec] = plan
	return plan
end

--- The first piece of evidence of a spec in a run's facts: its text and
-- how many pieces there were in all; or nil.
function M.evidence(spec, run, F)
	M.paths(F)
	for _, step in ipairs(plan_of(spec)) do
		local src, pats = step[1], step[2]
		local texts, images, count = texts_of(F, src)
		if count > 0 and src[1] == "script" then pats = script_pats(F, pats) end
		if count > 0 and #pats > 0 then
			local hit, n = first(texts, images, count, pats, step[3], spec.unless, spec.not_by)
			if hit then return src[4]:format(cut(hit)), n end
		end
	end
	if spec.check then
		local ev, n = spec.check(run, F)
		if ev then return ev, n or 1 end
	end
	return nil
end

-- the ids as the current ATT&CK names them (sbx.attack): a revoked id's
-- successor, and a note of each for the rule's doc
local function current_ids(list)
	local ids, notes = {}, {}
	for i, id in ipairs(list) do
		local cur, changed
		if type(id) == "string" and (id:match("^T%d%d%d%d$") or id:match("^T%d%d%d%d%.%d%d%d$")) then
			cur, changed = attack.current(id)
		end
		ids[i] = cur or id
		if changed then notes[#notes + 1] = ("%s is now %s"):format(id, cur) end
	end
	return ids, #notes > 0 and (" [ATT&CK %s: %s]"):format(attack.version, table.concat(notes, "; ")) or ""
end

--- A rule from a technique's spec (see the module's doc): `id` (a string
-- or a list of ATT&CK ids), `name`, `tactic`, `severity`, `what` (the
-- finding's reason starts with it), `doc`, and the evidence keys.
-- @treturn table a rule (`sbx.verdict`)
function M.technique(spec)
	assert(type(spec) == "table", "technique: a table expected")
	assert(type(spec.name) == "string", "technique: a name expected")
	local ids, renamed = current_ids(type(spec.id) == "table" and spec.id or { spec.id })
	local severity = spec.severity or 5
	local verdict = spec.verdict or M.verdict_of(severity)
	local sources = {}
	for _, src in ipairs(SOURCES) do
		if spec[src[1]] then sources[#sources + 1] = src[1] end
	end
	if spec.check then sources[#sources + 1] = "check" end
	return {
		name = spec.name, tactic = spec.tactic, attack = ids, severity = severity,
		doc = (spec.doc or ("%s (evidence: %s)"):format(spec.what, table.concat(sources, ", "))) .. renamed,
		fn = function(run, F)
			local ev, n = M.evidence(spec, run, F)
			if not ev then return nil end
			return { verdict = verdict, severity = severity,
				reason = ("%s: %s%s"):format(spec.what, ev, n > 1 and (" (%d in all)"):format(n) or "") }
		end,
	}
end

return M
