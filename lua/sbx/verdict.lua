--- Verdict rules: named Lua functions over a run's structured result.
-- A rule is `{ name = "...", doc = "...", fn = function(run) ... end }`;
-- `run` is the table `run.lua --json` writes (`outcome`, `exit_code`,
-- `events`, `limits`, `measured`, `deaths`, `verified`, `digest`, ...),
-- and `run.behaviour` the behaviour summary when the run has one.  A rule
-- that does not fire returns nil; one that fires returns a finding:
-- `{ verdict = "clean"|"suspicious"|"malicious"|<an operator's word>,
-- severity = 0..10, reason = "...", attack = { "T1611", ... } }`.
-- A run's verdict is that of its most severe finding (`clean` when none
-- fires), and every finding is kept.  A rule that raises is reported as
-- `{ rule = name, error = "..." }` and the others go on.
-- @module sbx.verdict
local core = require "sbx.core"

local M = {}

--- The verdicts every rule set knows, from the least to the most severe
-- (an operator's own word ranks by its finding's severity alone).
M.order = { clean = 0, suspicious = 2, malicious = 3 }

-- what a rules file sees: pure functions, nothing that reaches outside
-- the rule (no io, os, require, load, debug, package, collectgarbage)
local function rule_env()
	local function copy(t)
		local c = {}
		for k, v in pairs(t) do c[k] = v end
		return c
	end
	return {
		assert = assert, error = error, ipairs = ipairs, next = next, pairs = pairs,
		pcall = pcall, select = select, tonumber = tonumber, tostring = tostring,
		type = type, math = copy(math), string = copy(string), table = copy(table),
		utf8 = copy(utf8),
	}
end

local function bad(fname, n, msg, level)
	error(("bad argument #%d to '%s' (%s)"):format(n, fname, msg), level or 3)
end

--- Checks one rule's shape.
-- @param r a rule table
-- @return the rule, or nil, reason
function M.check_rule(r)
	if type(r) ~= "table" then return nil, "a rule must be a table" end
	if type(r.name) ~= "string" or not r.name:match("^[%w_.-]+$") then
		return nil, "a rule needs a name (letters, digits, _ . -)"
	end
	if type(r.fn) ~= "function" then return nil, ("rule %s: fn must be a function"):format(r.name) end
	for k in pairs(r) do
		if k ~= "name" and k ~= "fn" and k ~= "doc" then
			return nil, ("rule %s: unknown field %s"):format(r.name, tostring(k))
		end
	end
	return r
end

-- Whether a file or directory (an lstat/fstat table) could have been
-- written by a box: writable by others (a directory without its sticky
-- bit), or owned by a root caller's box host id.
local function box_writable(st, what)
	local stdbox = require "sbx.stdbox"
	if st.uid == stdbox.root_host_id then return ("%s is owned by the box host id"):format(what) end
	local sticky = st.type == "dir" and st.mode & 512 ~= 0
	if st.mode & 2 ~= 0 and not sticky then return ("%s is writable by others"):format(what) end
	return nil
end

--- Loads a rules file: a Lua chunk returning a list of rules, run in an
-- environment of pure functions only.  The file is opened once, without
-- following a symlink on its path, and refused when a box could have
-- written it (writable by others, or owned by the box host id) or its
-- directory.
-- @tparam string path
-- @return a list of rules, or nil, msg
function M.load_file(path)
	if type(path) ~= "string" then bad("load_file", 1, "string expected, got " .. type(path)) end
	local f, msg = core.open_file(path)
	if not f then return nil, msg end
	local st = f:stat()
	local dir = path:match("^(.*)/[^/]*$") or "."
	local dst = core.lstat(dir == "" and "/" or dir)
	local why = (not st and "cannot stat") or box_writable(st, "the file")
		or (dst and box_writable(dst, "its directory"))
	if why then
		f:close()
		return nil, ("%s: %s"):format(path, why)
	end
	local text, rerr = f:read(1 << 20)
	f:close()
	if not text then return nil, rerr end
	local chunk, lerr = load(text, "@" .. path, "t", rule_env())
	if not chunk then return nil, lerr end
	local ok, rules = pcall(chunk)
	if not ok then return nil, ("%s: %s"):format(path, tostring(rules)) end
	if type(rules) ~= "table" then return nil, ("%s: must return a list of rules"):format(path) end
	for i, r in ipairs(rules) do
		local good, why2 = M.check_rule(r)
		if not good then return nil, ("%s: rule %d: %s"):format(path, i, why2) end
	end
	return rules
end

--- The default rules (`rules/default.lua` beside sbxlua's Lua directory,
-- else the source tree's).
-- @return a list of rules, or nil, msg
function M.defaults()
	return M.load_file(M.default_path())
end

--- Where the default rules live: `rules/default.lua` beside the Lua
-- directory sbxlua loads its modules from (as `sbx.profile.dir` finds
-- the profiles).
function M.default_path()
	local config = package.loaded["sbx.config"]
	local luadir = type(config) == "table" and config.luadir or nil
	if luadir == nil then
		local path = package.searchpath("sbx.verdict", package.path) or "./sbx/verdict.lua"
		luadir = path:match("^(.*)/sbx/verdict%.lua$") or "."
	end
	return luadir .. "/../rules/default.lua"
end

local function check_finding(name, f)
	if type(f) ~= "table" then return nil, "returned a " .. type(f) .. ", not a finding" end
	if type(f.verdict) ~= "string" or f.verdict == "" then return nil, "a finding needs a verdict" end
	if math.type(f.severity) ~= "integer" or f.severity < 0 or f.severity > 10 then
		return nil, "a finding needs a severity from 0 to 10"
	end
	if type(f.reason) ~= "string" then return nil, "a finding needs a reason" end
	local attack = {}
	if f.attack ~= nil then
		if type(f.attack) ~= "table" then return nil, "attack must be a list of technique ids" end
		for _, id in ipairs(f.attack) do
			if type(id) ~= "string" or not id:match("^T%d%d%d%d[%.%d]*$") then
				return nil, "attack ids look like T1611 or T1497.003"
			end
			attack[#attack + 1] = id
		end
	end
	return { rule = name, verdict = f.verdict, severity = f.severity, reason = f.reason,
		attack = #attack > 0 and attack or nil }
end

--- Whether an error is sbxlua's SIGINT (the interpreter raises
-- `interrupted!` at the next Lua instruction, as lua.c does).
function M.interrupted(err)
	return type(err) == "string" and err:find("interrupted!$") ~= nil
end

local function worse(a, b)
	if a.severity ~= b.severity then return a.severity > b.severity end
	return (M.order[a.verdict] or 1) > (M.order[b.verdict] or 1)
end

--- Applies rules to a run.
-- @tparam table run the run's structured result (`run.behaviour` when present)
-- @tparam table rules a list of rules
-- @return `{ verdict =, severity =, reasons = { finding... }, errors = {
-- { rule =, error = }... } }`, findings in the order of the rules
function M.judge(run, rules)
	if type(run) ~= "table" then bad("judge", 1, "table expected, got " .. type(run)) end
	if type(rules) ~= "table" then bad("judge", 2, "table expected, got " .. type(rules)) end
	local reasons, errors, worst = {}, {}, nil
	for _, r in ipairs(rules) do
		local ok, f = pcall(r.fn, run)
		local finding, why
		-- sbxlua's SIGINT is raised in whatever Lua code runs: it stops
		-- the caller, it is no rule's error
		if not ok and M.interrupted(f) then error(f, 0) end
		if not ok then
			why = tostring(f)
		elseif f ~= nil then
			finding, why = check_finding(r.name, f)
		end
		if why then
			errors[#errors + 1] = { rule = r.name, error = why }
		elseif finding then
			reasons[#reasons + 1] = finding
			if not worst or worse(finding, worst) then worst = finding end
		end
	end
	return { verdict = worst and worst.verdict or "clean", severity = worst and worst.severity or 0,
		reasons = reasons, errors = errors }
end

--- A judgement as text: `verdict: V (severity N)`, then one line per
-- finding with its ATT&CK ids and reason (escaped as the report is: a
-- reason quotes what the program chose).
-- @tparam table v from `M.judge`
-- @treturn string
function M.text(v)
	if type(v) ~= "table" then bad("text", 1, "table expected, got " .. type(v)) end
	local esc = require("sbx.report").escape
	local out = { ("verdict: %s (severity %d)\n"):format(esc(tostring(v.verdict)), v.severity or 0) }
	for _, f in ipairs(v.reasons or {}) do
		out[#out + 1] = esc(("finding: %s%s: %s"):format(f.rule,
			f.attack and " [" .. table.concat(f.attack, ",") .. "]" or "", f.reason)) .. "\n"
	end
	for _, e in ipairs(v.errors or {}) do
		out[#out + 1] = esc(("rule failed: %s: %s"):format(e.rule, e.error)) .. "\n"
	end
	return table.concat(out)
end

return M
