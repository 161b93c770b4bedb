-- SPDX-License-Identifier: MIT
--- Verdict rules: named Lua functions over a run's structured result.
-- A rule is `{ name = "...", doc = "...", fn = function(run, facts) ... end }`
-- with, optionally, the technique it names (`attack = { "T1053.003" }`),
-- its `severity` and its ATT&CK `tactic`; `run` is the table `run.lua
-- --json` writes (`outcome`, `exit_code`, `events`, `limits`, `measured`,
-- `deaths`, `verified`, `digest`, ...), `run.behaviour` the behaviour
-- summary when the run has one, and `facts` the run's evidence by process
-- (`sbx.facts`), gathered once for every rule.  A rule that does not fire
-- returns nil; one that fires returns a finding: `{ verdict =
-- "info"|"suspicious"|"malicious"|<an operator's word>, severity = 0..10,
-- reason = "...", attack = { "T1611", ... } }` (attack defaults to the
-- rule's).  A run's verdict is that of its most severe finding, `clean`
-- when none fires or every finding is `info` (information, not suspicion:
-- a discovery command alone), and every finding is kept.  A rule that
-- raises is reported as `{ rule = name, error = "..." }` and the others go
-- on.  Rules come from Lua files and from Sigma YAML files (`sbx.sigma`).
-- @module sbx.verdict
local core = require "sbx.core"
local facts = require "sbx.facts"
local kit = require "sbx.rulekit"

local M = {}

--- The verdicts every rule set knows, from the least to the most severe
-- (an operator's own word ranks by its finding's severity alone).
M.order = { clean = 0, info = 0, suspicious = 2, malicious = 3 }

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
		utf8 = copy(utf8), rulekit = copy(kit),
	}
end

local function bad(fname, n, msg, level)
	error(("bad argument #%d to '%s' (%s)"):format(n, fname, msg), level or 3)
end

local RULE_FIELDS = { name = "string", fn = "function", doc = "string", attack = "table",
	severity = "number", tactic = "string", sigma = "boolean" }

--- Checks one rule's shape.
-- @param r a rule table
-- @return the rule, or nil, reason
function M.check_rule(r)
	if type(r) ~= "table" then return nil, "a rule must be a table" end
	if type(r.name) ~= "string" or not r.name:match("^[%w_.-]+$") then
		return nil, "a rule needs a name (letters, digits, _ . -)"
	end
	if type(r.fn) ~= "function" then return nil, ("rule %s: fn must be a function"):format(r.name) end
	for k, v in pairs(r) do
		if RULE_FIELDS[k] == nil then
			return nil, ("rule %s: unknown field %s"):format(r.name, tostring(k))
		elseif type(v) ~= RULE_FIELDS[k] then
			return nil, ("rule %s: %s must be a %s"):format(r.name, k, RULE_FIELDS[k])
		end
	end
	if r.severity and (math.type(r.severity) ~= "integer" or r.severity < 0 or r.severity > 10) then
		return nil, ("rule %s: severity must be an integer from 0 to 10"):format(r.name)
	end
	for _, id in ipairs(r.attack or {}) do
		if type(id) ~= "string" or not id:match("^T%d%d%d%d[%.%d]*$") then
			return nil, ("rule %s: attack ids look like T1611 or T1497.003"):format(r.name)
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

-- A rules file's text: opened once, without following a symlink on its
-- path, and refused when a box could have written it (writable by others,
-- or owned by the box host id) or its directory.
local function read_rules(path)
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
	local text, rerr = f:read((1 << 20) + 1)
	f:close()
	if not text then return nil, rerr end
	-- a file cut short would lose its last rules without a word
	if #text > 1 << 20 then return nil, ("%s: larger than 1 MiB"):format(path) end
	return text
end

-- A Lua rules file's text, run in an environment of pure functions only.
-- the same checks for YARA's rules files (sbx.yara): one owner
M.read_rules, M.box_writable = read_rules, box_writable

local function lua_rules(text, path)
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

local function is_sigma(path)
	return path:find("%.ya?ml$") ~= nil
end

--- Loads a Lua rules file: a chunk returning a list of rules, run in an
-- environment of pure functions only (and `rulekit`, `sbx.rulekit`).
-- The file is opened once, without following a symlink on its path, and
-- refused when a box could have written it (writable by others, or owned
-- by the box host id) or its directory.
-- @tparam string path
-- @return a list of rules, or nil, msg
function M.load_file(path)
	if type(path) ~= "string" then bad("load_file", 1, "string expected, got " .. type(path)) end
	local text, msg = read_rules(path)
	if not text then return nil, msg end
	return lua_rules(text, path)
end

-- One file of rules: Lua, or Sigma YAML (`.yml`, `.yaml`).
local function load_one(path, out)
	local text, msg = read_rules(path)
	if not text then return nil, msg end
	out.digest[#out.digest + 1] = path:match("[^/]*$") .. " " .. core.sha256(text)
	local rules, skipped
	if is_sigma(path) then
		rules, skipped = require("sbx.sigma").compile(text, path)
	else
		rules, msg = lua_rules(text, path)
		if not rules then return nil, msg end
	end
	for _, r in ipairs(rules) do out.rules[#out.rules + 1] = r end
	for _, sk in ipairs(skipped or {}) do out.skipped[#out.skipped + 1] = sk end
	return true
end

--- Loads rules from a file or a directory: a Lua rules file (as
-- `load_file`), a Sigma rule file (`.yml`, `.yaml`: `sbx.sigma`), or a
-- directory's files of both kinds (`*.lua`, `*.yml`, `*.yaml`, by name;
-- subdirectories are read too, so a Sigma rules checkout can be named
-- as it is).  A directory is listed through its descriptor; a name in it
-- that is a symlink is not followed.
-- @tparam string path
-- @return a list of rules, the Sigma rules not supported (`{ source =,
--  title =, id =, why = }`), and the sha256 of every file's name and
--  sha256, in order; or nil, msg
function M.load(path)
	if type(path) ~= "string" then bad("load", 1, "string expected, got " .. type(path)) end
	local out = { rules = {}, skipped = {}, digest = {} }
	local function walk(dir, depth)
		local d, msg = core.open_dir(dir)
		if not d then return nil, msg end
		local st = core.lstat(dir)
		local why = st and box_writable(st, "the directory")
		if why then
			d:close()
			return nil, ("%s: %s"):format(dir, why)
		end
		local names, lerr = d:list()
		d:close()
		if not names then return nil, lerr end
		table.sort(names, function(a, b) return a.name < b.name end)
		for _, e in ipairs(names) do
			local p = dir .. "/" .. e.name
			local ok, err = true, nil
			if e.type == "dir" and e.name:sub(1, 1) ~= "." and depth < 8 then
				ok, err = walk(p, depth + 1)
			elseif e.type == "file" and (e.name:find("%.lua$") or is_sigma(e.name)) then
				ok, err = load_one(p, out)
			end
			if not ok then return nil, err end
		end
		return true
	end
	local st = core.lstat(path)
	local ok, msg
	if st and st.type == "dir" then
		ok, msg = walk(path:gsub("/+$", ""), 0)
	else
		ok, msg = load_one(path, out)
	end
	if not ok then return nil, msg end
	return out.rules, out.skipped, core.sha256(table.concat(out.digest, "\n"))
end

--- The default rules: every file of `rules/` beside sbxlua's Lua
-- directory, else the source tree's (`M.default_path`).
-- @return a list of rules, or nil, msg
function M.defaults()
	return M.load(M.default_path())
end

--- Where the default rules live: the `rules` directory beside the Lua
-- directory sbxlua loads its modules from (`sbx.profile.data_dir`, as the
-- profiles are found).
function M.default_path()
	return require("sbx.profile").data_dir("rules", "sbx.verdict") or "./../rules"
end

local function check_finding(r, f)
	local name = r.name
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
	if f.attack == nil then
		for _, id in ipairs(r.attack or {}) do attack[#attack + 1] = id end
	end
	-- a Sigma rule's match in VirusTotal's shape (sbx.sigma), from a
	-- rule sbx.sigma compiled only
	local sigma = r.sigma == true and type(f.sigma) == "table" and f.sigma or nil
	return { rule = name, verdict = f.verdict, severity = f.severity, reason = f.reason,
		attack = #attack > 0 and attack or nil, tactic = r.tactic, count = math.tointeger(f.count), sigma = sigma }
end

-- The Sigma rules' matches of the findings, in VirusTotal's shape
-- (`sigma_analysis_results`: rule_title, rule_level, rule_id, rule_source,
-- rule_description, match_context), taken out of the findings (whose
-- reasons say the same in words); nil when none matched.
local function sigma_results(reasons)
	local list
	for _, f in ipairs(reasons) do
		if f.sigma then
			list = list or {}
			list[#list + 1], f.sigma = f.sigma, nil
		end
	end
	return list
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

--- The CPU seconds all the rules together may take over one run (the
-- default of `judge`'s `budget`, and of `--judge-budget`).  The project's
-- own rules take about 0.09 ms a recorded event, linear in the events
-- (measured: 0.085 s on a compiler's run of 1,026 events, 2.8 s on 30,780,
-- 9.4 s on 102,600; docs/batch.md, "Judging is bounded"): 30 s covers
-- three times the largest of these.
M.BUDGET = 30

-- how many Lua instructions run between two looks at the clock
local BUDGET_CHECK = 10000

-- the error the budget's hook raises in a rule that runs past it
local SPENT = setmetatable({}, { __tostring = function() return "judging budget spent" end })

-- One rule's finding or error, added to reasons, errors; raises SPENT and
-- sbxlua's SIGINT.
local function apply(r, run, F, reasons, errors)
	local ok, f = pcall(r.fn, run, F)
	local finding, why
	-- sbxlua's SIGINT is raised in whatever Lua code runs: it stops
	-- the caller, it is no rule's error; nor is the budget's end
	if not ok and (f == SPENT or M.interrupted(f)) then error(f, 0) end
	if not ok then
		why = tostring(f)
	elseif f ~= nil then
		finding, why = check_finding(r, f)
	end
	if why then
		errors[#errors + 1] = { rule = r.name, error = why }
	elseif finding then
		reasons[#reasons + 1] = finding
	end
end

-- Runs the rules in order within budget CPU seconds (os.clock: sbxlua's
-- own), looked at every BUDGET_CHECK instructions by a count hook (the
-- count runs on across rules), which raises SPENT in the rule that runs
-- past it.  Not at each rule's start: os.clock is a system call, and the
-- rule library's 200 rules a run made it a third of judging's CPU.
-- Returns how many rules were applied in full.
local function apply_all(run, rules, F, reasons, errors, budget)
	local clock, done, nr, ne = os.clock, 0, 0, 0
	local deadline = clock() + budget
	local function hook()
		if clock() > deadline then error(SPENT, 0) end
	end
	local function all()
		for i, r in ipairs(rules) do
			nr, ne = #reasons, #errors
			apply(r, run, F, reasons, errors)
			done = i
		end
	end
	-- a hook of the caller's own (none but a debugger's) comes back after
	local oh, om, oc = debug.gethook()
	debug.sethook(hook, "", BUDGET_CHECK)
	local ok, err = pcall(all)
	if type(oh) == "function" then debug.sethook(oh, om, oc) else debug.sethook() end
	if not ok and err ~= SPENT then error(err, 0) end
	if not ok then
		-- what the rule the budget stopped had said is not kept: it is
		-- one of the rules not evaluated
		for i = #reasons, nr + 1, -1 do reasons[i] = nil end
		for i = #errors, ne + 1, -1 do errors[i] = nil end
	end
	return done
end

--- The note of a refusal the program did not get past: the last call the
-- box refused (an event answered `deny` or `stop`), when no exec and no
-- connect was let through after it and the command exited: `note: the
-- program ended 12 ms after a refused ptrace`, from the refusal to the
-- command's end (the box's, when nothing ran on), on the events' clock.
-- A run the box changed so (an anti-debugging check that took its other
-- way) is said to be one; `M.judge` names it in a finding.
-- @tparam table r the core's result (`events`, `outcome`, `elapsed`,
-- `outlived`)
-- @return a note event, or nil
function M.refusal_end(r)
	if type(r) ~= "table" then bad("refusal_end", 1, "table expected, got " .. type(r)) end
	if r.outcome ~= "exit" then return nil end
	local last
	for _, e in ipairs(type(r.events) == "table" and r.events or {}) do
		if type(e) == "table" then
			if (e.answer == "deny" or e.answer == "stop") and math.type(e.time_ms) then
				last = e
			elseif last and e.answer == "allow" and (e.kind == "exec" or e.kind == "connect") then
				last = nil
			end
		end
	end
	local o = type(r.outlived) == "table" and r.outlived or nil
	local end_ms = o and tonumber(o.after_ms) or (tonumber(r.elapsed) and r.elapsed * 1000)
	if not last or not end_ms then return nil end
	local ms = math.max(0, math.floor(end_ms - last.time_ms))
	local call = tostring(last.syscall or last.kind)
	return { kind = "note", cause = "refusal_end", call = call, ms = ms, time_ms = last.time_ms,
		text = ("note: the program ended %d ms after a refused %s"):format(ms, call) }
end

-- The finding of a refusal the program did not get past (`M.refusal_end`'s
-- note among the run's events): information, said with the verdict.
local function refusal_finding(run)
	for _, e in ipairs(type(run.events) == "table" and run.events or {}) do
		if type(e) == "table" and e.kind == "note" and e.cause == "refusal_end" then
			return { rule = "refusal_end", verdict = "info", severity = 0,
				reason = ("the program ended %s ms after a refused %s: what it did next may be "
					.. "the box's doing"):format(tostring(e.ms), tostring(e.call)) }
		end
	end
	return nil
end

--- Applies rules to a run, within a budget of CPU time over all of them.
-- The rules the budget leaves out (the one it stopped and every one after
-- it) are named in `not_evaluated`, and a finding says so: `judging_budget`,
-- verdict `unknown`, severity 1, `judging budget spent (30 s of CPU): 412
-- rules not evaluated`.  So a run is never `clean` when rules were not
-- evaluated: it keeps the worst finding so far, `unknown` when there is
-- none (docs/batch.md).
-- @tparam table run the run's structured result (`run.behaviour` when present)
-- @tparam table rules a list of rules
-- @tparam[opt] table opts `budget`: CPU seconds (a number above 0; default
--  `M.BUDGET`)
-- @return `{ verdict =, severity =, reasons = { finding... }, errors = {
-- { rule =, error = }... }, not_evaluated = { name... } or nil, budget =
-- seconds, sigma_analysis_results = { match... } or nil }`, findings in
-- the order of the rules
function M.judge(run, rules, opts)
	if type(run) ~= "table" then bad("judge", 1, "table expected, got " .. type(run)) end
	if type(rules) ~= "table" then bad("judge", 2, "table expected, got " .. type(rules)) end
	if opts ~= nil and type(opts) ~= "table" then bad("judge", 3, "table expected, got " .. type(opts)) end
	local budget = opts and opts.budget
	if budget ~= nil and (type(budget) ~= "number" or budget ~= budget or budget <= 0 or budget == math.huge) then
		bad("judge", 3, "budget must be a number of seconds above 0")
	end
	budget = budget or M.BUDGET
	local reasons, errors = {}, {}
	local F = facts.of(run)
	local done = apply_all(run, rules, F, reasons, errors, budget)
	local not_evaluated
	if done < #rules then
		not_evaluated = {}
		for i = done + 1, #rules do not_evaluated[#not_evaluated + 1] = tostring(rules[i].name) end
		reasons[#reasons + 1] = { rule = "judging_budget", verdict = "unknown", severity = 1,
			reason = ("judging budget spent (%g s of CPU): %d rules not evaluated, the first %s"):format(
				budget, #not_evaluated, not_evaluated[1]) }
	end
	reasons[#reasons + 1] = refusal_finding(run)
	-- information is kept, and does not make a run suspicious
	local worst
	for _, f in ipairs(reasons) do
		if f.verdict ~= "info" and (not worst or worse(f, worst)) then worst = f end
	end
	return { verdict = worst and worst.verdict or "clean", severity = worst and worst.severity or 0,
		reasons = reasons, errors = errors, not_evaluated = not_evaluated, budget = budget,
		sigma_analysis_results = sigma_results(reasons) }
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
