-- SPDX-License-Identifier: MIT
-- Judging is bounded as a whole (sbx.verdict.judge's budget, --judge-budget):
-- a generated set of slow Sigma rules (written here, each a regular
-- expression that never matches and reads every byte of every command
-- line) over many long command lines is stopped by the budget, and the
-- rules it did not finish are named in the verdict, which is then never
-- clean; a Lua rule that never returns is stopped the same way; the
-- project's default rules on a large real run are not affected.  Through
-- the library, run.lua --explore and batch.lua.
-- scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"
local sigma = require "sbx.sigma"
local verdict = require "sbx.verdict"
local cjson = require "cjson"

-- n Sigma rules, each a regular expression over the command line that
-- never matches (no command line here holds a 'q'): the Pike machine
-- reads every byte of every event with about 40 threads, about a million
-- steps a rule on the run below (the per-rule bound is 5,000,000: no one
-- rule is stopped by it)
local function slow_rules(n)
	local docs = {}
	for i = 1, n do
		docs[i] = ("title: Slow rule %d\nid: judge-slow-%03d\n"
			.. "logsource: {product: linux, category: process_creation}\n"
			.. "detection: {s: {CommandLine|re: '[a-z]{1,40}q%d'}, condition: s}\nlevel: high\n"):format(i, i, i)
	end
	return table.concat(docs, "---\n")
end

local function compiled(n)
	local rules, skipped = sigma.compile(slow_rules(n), "slow.yml")
	assert(#skipped == 0 and #rules == n, "the slow rules compile")
	return rules
end

-- A run of `count` execs, each with a command line of `len` letters.
local function long_lines_run(count, len)
	local run = { outcome = "exit", exit_code = 0, events = {} }
	for i = 1, count do
		run.events[i] = { kind = "exec", pid = i + 1, ppid = 1, path = "/usr/bin/x",
			argv = { "x", ("ab"):rep(len // 2) }, answer = "allow" }
	end
	return run
end

local function names(rules, from)
	local t = {}
	for i = from, #rules do t[#t + 1] = rules[i].name end
	return t
end

-- The rules a verdict left out are the last of the list, in order.
local function assert_tail(rules, v)
	assert.truthy(v.not_evaluated and #v.not_evaluated > 0, "some rules were not evaluated")
	assert.are.same(names(rules, #rules - #v.not_evaluated + 1), v.not_evaluated)
end

-- Validates text (JSON lines) against docs/schema/NAME with Debian's
-- python3-jsonschema (tests/schema_check.py); returns its output, status.
local function validate(text, name)
	local f = os.tmpname()
	local h = assert(io.open(f, "w"))
	h:write(text)
	h:close()
	local out, code = S.sh("/usr/bin/python3 tests/schema_check.py docs/schema " .. name .. " <" .. f .. " 2>&1")
	os.remove(f)
	return out, code
end

describe("judging bounded as a whole [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	describe("sbx.verdict.judge", function()
		it("stops slow Sigma rules over long command lines at the budget, names those left, and is not clean", function()
			-- 60 rules of about half a second each here: 30 s without a
			-- budget; a budget of 0.2 s leaves most out
			local rules = compiled(60)
			local v = verdict.judge(long_lines_run(6, 4000), rules, { budget = 0.2 })
			assert_tail(rules, v)
			assert.truthy(#v.not_evaluated >= 50, #v.not_evaluated)
			assert.are.same({}, v.errors)
			assert.are.same({ "unknown", 1, 0.2 }, { v.verdict, v.severity, v.budget })
			local f = S.finding(v.reasons, "judging_budget")
			assert.are.equal(("judging budget spent (0.2 s of CPU): %d rules not evaluated, the first %s"):format(
				#v.not_evaluated, v.not_evaluated[1]), f.reason)
			assert.matches("\nfinding: judging_budget: judging budget spent %(0%.2 s of CPU%): %d+ rules not "
				.. "evaluated, the first sigma%.judge%-slow%-%d+\n", verdict.text(v))
		end)

		it("keeps the worst finding so far beside the note", function()
			local rules = compiled(20)
			table.insert(rules, 1, { name = "first", fn = function()
				return { verdict = "malicious", severity = 8, reason = "fired first" }
			end })
			local v = verdict.judge(long_lines_run(6, 4000), rules, { budget = 0.2 })
			assert_tail(rules, v)
			assert.are.same({ "malicious", 8 }, { v.verdict, v.severity })
			assert.are.same({ "first", "judging_budget" }, { v.reasons[1].rule, v.reasons[2].rule })
		end)

		it("stops a Lua rule that never returns, and a rule the budget stopped says nothing", function()
			local rules = {
				{ name = "information", fn = function() return { verdict = "info", severity = 1, reason = "i" } end },
				{ name = "forever", fn = function()
					local n = 0
					while true do n = n + 1 end
				end },
				{ name = "after", fn = function() return { verdict = "suspicious", severity = 3, reason = "a" } end },
			}
			local v = verdict.judge({}, rules, { budget = 0.1 })
			assert.are.same({ "forever", "after" }, v.not_evaluated)
			assert.are.same({ "unknown", 1 }, { v.verdict, v.severity })
			assert.are.same({ "information", "judging_budget" }, { v.reasons[1].rule, v.reasons[2].rule })
			assert.are.same({}, v.errors)
			-- no hook is left behind
			assert.is_nil(debug.gethook())
		end)

		it("is the default budget's when none is given, and leaves a run whose rules finish as it was", function()
			local v = verdict.judge(long_lines_run(2, 100), compiled(3))
			assert.are.same({ "clean", verdict.BUDGET }, { v.verdict, v.budget })
			assert.is_nil(v.not_evaluated)
			assert.is_nil(S.finding(v.reasons, "judging_budget"))
		end)

		it("validates the budget", function()
			for _, b in ipairs { 0, -1, 0 / 0, math.huge, "1" } do
				assert.has_error(function() verdict.judge({}, {}, { budget = b }) end,
					"bad argument #3 to 'judge' (budget must be a number of seconds above 0)")
			end
			assert.has_error(function() verdict.judge({}, {}, 5) end,
				"bad argument #3 to 'judge' (table expected, got number)")
		end)
	end)

	describe("the default rules", function()
		it("finish far inside the default budget on a large real run", function()
			-- 400 execs with long command lines, files written and read,
			-- a lookup: as many events as the supervisor keeps today
			local prog = "L=$(printf '%0100d' 0 | tr 0 a); i=0; while [ $i -lt 400 ]; do "
				.. "/bin/echo $L $L $L $L $L >/tmp/f; cat /tmp/f /etc/passwd >/dev/null; i=$((i+1)); done; "
				.. "getent hosts example.org >/dev/null; exit 0"
			-- (a wall clock far past the run's own few seconds: a loaded
			-- machine's 800 notified execs are not this test's subject)
			local _, _, code, res = S.json_run("--explore", "--wall", "600", "/bin/sh", "-c", prog)
			assert.are.equal(0, code)
			assert.is_nil(res.verdict.not_evaluated)
			assert.are.equal(verdict.BUDGET, res.verdict.budget)
			assert.is_nil(S.finding(res.verdict.reasons, "judging_budget"))
			-- the same run judged again here, by a quarter of the budget
			-- (181 rules over 26,000 events: 2.6 s of CPU on this machine
			-- kind, loaded; docs/batch.md, "Judging is bounded")
			local v = verdict.judge(res, assert(verdict.defaults()), { budget = verdict.BUDGET / 4 })
			assert.is_nil(v.not_evaluated)
			-- and by a rule that never returns within a small one: its JSON
			-- has the shape docs/schema says
			res.verdict = verdict.judge(res, { { name = "forever", fn = function()
				local n = 0
				while true do n = n + 1 end
			end } }, { budget = 0.05 })
			assert.truthy(res.verdict.not_evaluated)
			local out, vcode = validate(require("sbx.json").encode(res) .. "\n", "run.schema.json")
			assert.are.equal(0, vcode, out)
		end)

		it("--judge-budget's help names the library's default", function()
			local out = S.sh(S.bin .. " run.lua --help 2>&1")
			assert.matches(("(default %g)"):format(verdict.BUDGET), out:gsub("%s+", " "), 1, true)
		end)
	end)

	describe("the scripts", function()
		it("run.lua --judge-budget: seconds above 0", function()
			for _, b in ipairs { "0", "-1", "x", "nan", "1e9" } do
				local _, err, code = S.runlua("--explore", "--judge-budget", b, "/bin/true")
				assert.are.equal(126, code, b)
				assert.truthy(err:find("--judge-budget " .. b .. ": expected seconds above 0", 1, true), err)
			end
		end)

		it("batch.lua: slow Sigma rules over a real run's long command lines are stopped and named", function()
			local d, rm = S.tmpdir()
			local h = assert(io.open(d .. "/slow.yml", "w"))
			h:write(slow_rules(40))
			h:close()
			os.execute("mkdir " .. S.q(d .. "/progs"))
			h = assert(io.open(d .. "/progs/long.sh", "w"))
			-- (the supervisor records about 500 bytes of each argv today:
			-- 100 command lines of that length)
			h:write("#!/bin/sh\nL=$(printf '%0100d' 0 | tr 0 a)\ni=0\nwhile [ $i -lt 100 ]; do "
				.. "/bin/echo $L $L $L $L $L $L $L $L $L $L >/dev/null; i=$((i+1)); done\n")
			h:close()
			os.execute("chmod -R a+rX " .. S.q(d) .. "; chmod 755 " .. S.q(d .. "/progs/long.sh"))
			local err = d .. "/err"
			local out, code = S.sh(S.bin .. " batch.lua -q --no-default-rules --rules " .. S.q(d .. "/slow.yml")
				.. " --judge-budget 0.2 " .. S.q(d .. "/progs") .. " 2>" .. S.q(err) .. " </dev/null")
			local e = S.read(err)
			-- the same under another budget is another record
			local out2 = S.sh(S.bin .. " batch.lua -q --no-default-rules --rules " .. S.q(d .. "/slow.yml")
				.. " --judge-budget 0.3 " .. S.q(d .. "/progs/long.sh") .. " 2>/dev/null </dev/null")
			rm()
			assert.are.equal(0, code, e)
			local rec = cjson.decode(out)
			assert.are.equal("unknown", rec.verdict)
			assert.truthy(#rec.rules_not_evaluated > 0 and #rec.rules_not_evaluated <= 40)
			assert.are.equal(("sigma.judge-slow-%03d"):format(40), rec.rules_not_evaluated[#rec.rules_not_evaluated])
			assert.truthy(S.finding(rec.reasons, "judging_budget"))
			local vout, vcode = validate(out, "batch-line.schema.json")
			assert.are.equal(0, vcode, vout)
			local rec2 = cjson.decode(out2)
			assert.are_not.equal(rec.options, rec2.options)
		end)
	end)
end)
