-- SPDX-License-Identifier: MIT
-- No silent cap on the explain channel's evidence (notify.h, evlog.c): a
-- sample that floods the event log before it acts is judged at least as
-- severely as the same sample without the flood, and the finding
-- `evidence_flood` names the flood; a path or an argument longer than its
-- buffer is kept cut with its length, never as "?"; a real program fits
-- the budgets.  Each test runs a real box under run.lua --explore, as
-- root and as uid 65534 (scripts/test.sh).
local S = require "support"

-- the flood program (tests/progs/flood.c), bound read-only in the box
local FLOOD = os.getenv("PWD") .. "/build/tests/flood"

local function explore(script)
	return S.json_run("--explore", "--ro", FLOOD .. ":/opt/flood", "--", "/bin/sh", "-c", script)
end

local function finding(res, rule)
	for _, f in ipairs(res.verdict.reasons) do
		if f.rule == rule then return f end
	end
	return nil
end

local function dropped_event(res)
	for _, e in ipairs(res.events) do
		if e.kind == "dropped" then return e end
	end
	return nil
end

local function events_of(res, kind)
	local out = {}
	for _, e in ipairs(res.events) do
		if e.kind == kind then out[#out + 1] = e end
	end
	return out
end

local ACT = "cat /etc/shadow >/dev/null; id >/dev/null"

describe("flood: evidence past its budget [" .. S.priv .. "]", function()
	local plain -- the sample without the flood
	setup(function()
		local _, _, _, res = explore(ACT)
		plain = res
	end)

	it("the acts alone are malicious (the baseline)", function()
		assert.are.equal("malicious", plain.verdict.verdict)
		assert.truthy(finding(plain, "shadow"))
		assert.falsy(finding(plain, "evidence_flood"))
	end)

	it("1100 opens of the shell's, then the acts: all kept, as severe as the acts alone", function()
		local _, err, _, res = explore("i=0; while [ $i -lt 1100 ]; do true < /tmp/n$i 2>/dev/null; "
			.. "i=$((i+1)); done; " .. ACT)
		assert.are.equal(plain.verdict.severity, res.verdict.severity, err)
		assert.truthy(finding(res, "shadow"))
		assert.falsy(dropped_event(res))
		assert.falsy(finding(res, "evidence_flood"))
		local n = 0
		for _, e in ipairs(events_of(res, "open")) do
			if e.path:find("^/tmp/n%d+$") then n = n + 1 end
		end
		assert.are.equal(1100, n)
	end)

	it("27000 opens past the open budget, then the acts: summarised, named, and as severe", function()
		-- paths of 1005 bytes, kept cut to 511: the budget's 16 MiB in
		-- about 25,000 records
		local _, err, _, res = explore("/opt/flood open 27000 1000; " .. ACT)
		assert.is_true(res.verdict.severity >= plain.verdict.severity, err)
		assert.truthy(finding(res, "shadow"), err)
		assert.truthy(finding(res, "user_discovery"), err)
		local f = finding(res, "evidence_flood")
		assert.truthy(f, err)
		assert.are.equal("suspicious", f.verdict)
		assert.truthy(f.reason:find("open %d+ summarised in /tmp %(first /tmp/a+%[%.%.%.%]a+%d+, "
			.. "last /tmp/a+%[%.%.%.%]a+26999%)"), f.reason)
		-- the summary: a count, the first and the last
		local d = dropped_event(res)
		local s = d.summaries[1]
		assert.are.same({ "open", "/tmp", "allow" }, { s.kind, s.dir, s.answer })
		assert.truthy(s.last.path:find("^/tmp/a+%[%.%.%.%]a+26999$"), s.last.path)
		assert.are.equal(#"/tmp/" + 1000 + 5, s.last.path_cut)
		assert.is_true(s.count > 0 and s.count < 27000)
		-- kept whole up to the budget, and the summary's first 16 too
		local kept = 0
		for _, e in ipairs(events_of(res, "open")) do
			if e.path:find("^/tmp/a+%[%.%.%.%]a+%d+$") then kept = kept + 1 end
		end
		assert.are.equal(16, s.kept)
		assert.are.equal(27000, kept + s.count - s.kept)
		-- the text report says it, without --verbose
		assert.truthy(("\n" .. err):find("\nsandbox: evidence past its budget: %d+ events, summarised: open %d+ in /tmp "),
			err)
	end)

	it("an exec flood past the intent budget, then the acts: as severe, the flood named", function()
		local _, err, _, res = explore("/opt/flood exec 9000 1000; " .. ACT)
		assert.is_true(res.verdict.severity >= plain.verdict.severity, err)
		assert.truthy(finding(res, "shadow"), err)
		assert.truthy(finding(res, "user_discovery"), err)
		local f = finding(res, "evidence_flood")
		assert.truthy(f, err)
		assert.truthy(f.reason:find("exec %d+ summarised in /nonexistent"), f.reason)
		-- the flood's paths (1000 bytes and more) kept cut, with their length
		local e = events_of(res, "exec")[3]
		assert.are.equal("/opt/flood", events_of(res, "exec")[2].path)
		assert.are.equal(#"/nonexistent/" + 1000 + 1, e.path_cut)
		assert.are.equal(511, #e.path)
		assert.truthy(e.path:find("^/nonexistent/a+%[%.%.%.%]a+0$"), e.path)
		-- its first argument, the path again, cut: its length
		assert.are.equal(#"/nonexistent/" + 1000 + 1, e.arg_cut)
		assert.are.equal(1, #e.argv)
		assert.is_true(e.argv_cut)
	end)

	-- the sample aims its flood at the summaries themselves: names in a
	-- directory each (the summaries run out before /etc has one), or in
	-- /etc itself (the read is neither among the first of /etc's nor its
	-- last); the files it is judged on are kept whole in a budget of
	-- their own (notify.keep, sbx.stdbox.KEEP_OPENS)
	for _, where in ipairs { "dirs", "etc" } do
		it("a flood aimed at the summaries (" .. where .. "), then a read of /etc/shadow: kept, as severe", function()
			local prog = os.getenv("PWD") .. "/build/tests/floodhide"
			local _, err, _, res = S.json_run("--explore", "--ro", prog .. ":/opt/floodhide", "--",
				"/bin/sh", "-c", "/opt/floodhide " .. where .. " 40000")
			assert.truthy(dropped_event(res), err)
			assert.truthy(finding(res, "evidence_flood"))
			assert.truthy(finding(res, "shadow"), err)
			assert.are.equal("malicious", res.verdict.verdict)
			assert.is_true(res.verdict.severity >= plain.verdict.severity)
			local kept = false
			for _, e in ipairs(events_of(res, "open")) do
				if e.path == "/etc/shadow" then kept = true end
			end
			assert.is_true(kept)
		end)
	end
end)

describe("flood: long paths and arguments [" .. S.priv .. "]", function()
	it("/etc/./././...(600 bytes)/shadow is read as /etc/shadow", function()
		local _, err, _, res = explore("cat /etc/" .. ("./"):rep(300) .. "shadow >/dev/null")
		assert.are.equal("malicious", res.verdict.verdict, err)
		assert.truthy(finding(res, "shadow"))
		local seen = false
		for _, e in ipairs(events_of(res, "open")) do
			if e.path == "/etc/shadow" then seen = true end
			assert.are_not.equal("?", e.path)
		end
		assert.is_true(seen)
	end)

	it("/etc/x/../ repeated past the buffer is read as /etc/shadow", function()
		local _, err, _, res = explore("cat /etc/" .. ("x/../"):rep(150) .. "shadow >/dev/null 2>&1")
		assert.truthy(finding(res, "shadow"), err)
	end)

	it("a path longer than the buffer is kept cut with its length and a mark, never ?", function()
		local long = "/tmp/" .. ("b"):rep(200) .. "/" .. ("c"):rep(200) .. "/" .. ("d"):rep(200) .. "/id_rsa"
		local _, err, _, res = explore("mkdir -p " .. long:match("^(.*)/") .. " && : > " .. long .. " && cat " .. long)
		local cut
		for _, e in ipairs(events_of(res, "open")) do
			assert.are_not.equal("?", e.path)
			if e.path_cut then cut = e end
		end
		assert.truthy(cut, err)
		assert.are.equal(#long, cut.path_cut)
		assert.are.equal(511, #cut.path)
		assert.are.equal(long:sub(1, 253), cut.path:sub(1, 253))
		assert.are.equal("[...]", cut.path:sub(254, 258))
		assert.are.equal(long:sub(-253), cut.path:sub(-253))
	end)

	it("an argument longer than the buffer is kept cut: its head, a mark, its tail and its length", function()
		local script = "true " .. ("x"):rep(700) .. "; cat /etc/shadow >/dev/null"
		local _, err, _, res = explore(script)
		local sh = events_of(res, "exec")[1]
		assert.are.same("-c", sh.argv[2], err)
		assert.are.equal(#script, sh.arg_cut)
		assert.is_true(sh.argv_cut)
		assert.are.equal(3, #sh.argv)
		assert.truthy(sh.argv[3]:find("^true x+%[%.%.%.%]x+; cat /etc/shadow >/dev/null$"), sh.argv[3])
		assert.truthy(finding(res, "shadow"))
	end)
end)

describe("flood: real programs fit the budgets [" .. S.priv .. "]", function()
	local dir
	before_each(function()
		dir = S.tmpdir()
		S.sh("chmod 0777 " .. S.q(dir))
	end)
	after_each(function() S.sh("rm -rf " .. S.q(dir)) end)

	it("python3 -m compileall of 30 modules: nothing past a budget", function()
		for i = 1, 30 do
			S.write(("%s/m%d.py"):format(dir, i), ("import os, sys, json\ndef f%d(x):\n    return x * %d\n"):format(i, i))
		end
		local _, err, code, res = S.json_run("--explore", "--rw", dir, "--", "/usr/bin/python3", "-m",
			"compileall", "-q", dir)
		assert.are.equal(0, code, err)
		assert.falsy(dropped_event(res))
		assert.falsy(finding(res, "evidence_flood"))
		assert.is_true(#events_of(res, "open") > 30)
	end)

	it("gcc compiling a file: nothing past a budget", function()
		S.write(dir .. "/h.c", '#include <stdio.h>\n#include <stdlib.h>\nint main(void) { puts("hi"); return 0; }\n')
		local _, err, code, res = S.json_run("--explore", "--rw", dir, "--", "/usr/bin/gcc", "-O2", "-o",
			dir .. "/h", dir .. "/h.c")
		assert.are.equal(0, code, err)
		assert.falsy(dropped_event(res))
		assert.falsy(finding(res, "evidence_flood"))
		assert.is_true(#events_of(res, "exec") >= 4)
	end)
end)

describe("flood: other bounds feed the same finding [" .. S.priv .. "]", function()
	local verdict = require "sbx.verdict"
	local facts = require "sbx.facts"
	local box_rules = assert(verdict.load_file("rules/box.lua"))

	local function flood_finding(run)
		for _, f in ipairs(verdict.judge(run, box_rules).reasons) do
			if f.rule == "evidence_flood" then return f end
		end
		return nil
	end

	it("the sink's records past its budgets and files left uninspected are overflow", function()
		-- by protocol where the result has them (the total is their sum:
		-- never counted twice), else the total
		local run = { events = {}, sink = { dropped = 5, dropped_dns = 3 }, sink_dropped_udp = 2,
			inspect_skipped = 4 }
		local F = facts.of(run)
		assert.are.same({ { what = "sink dns", count = 3 }, { what = "sink udp", count = 2 },
			{ what = "inspection", count = 4 } }, F.overflow)
		local f = flood_finding(run)
		assert.are.equal("suspicious", f.verdict)
		assert.are.equal(5, f.severity)
		assert.are.equal("evidence past its budget (9): sink dns 3 not kept; sink udp 2 not kept; "
			.. "inspection 4 not kept", f.reason)
		assert.are.same({ { what = "sink", count = 7 } }, facts.of { events = {}, sink_dropped = 7 }.overflow)
	end)

	it("nothing past a budget, or fields of the wrong type: no finding", function()
		assert.is_nil(flood_finding { events = {}, sink = { dropped = 0 } })
		assert.is_nil(flood_finding { events = { { kind = "dropped", summaries = "x", lost = 3 } },
			sink = "x", inspect_skipped = "many", sink_dropped_dns = -1 })
		assert.has_error(function() facts.of(nil) end, "bad argument #1 to 'of' (table expected, got nil)")
	end)

	it("a summary's first and last are facts; events lost by kind are named", function()
		local run = { events = { { kind = "dropped", count = 12, lost = { exec = 2 },
			summaries = { { kind = "open", answer = "allow", dir = "/etc", count = 10,
				first = { kind = "open", path = "/etc/ld.so.cache", answer = "allow", flags = 0 },
				last = { kind = "open", path = "/etc/shadow", answer = "allow", flags = 0 } } } } } }
		local F = facts.of(run)
		assert.are.same({ "/etc/ld.so.cache", "/etc/shadow" }, { F.opens[1].path, F.opens[2].path })
		assert.are.equal("evidence past its budget (12): open 10 summarised in /etc (first /etc/ld.so.cache, "
			.. "last /etc/shadow); exec 2 not kept", flood_finding(run).reason)
	end)
end)
