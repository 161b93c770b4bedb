-- SPDX-License-Identifier: MIT
-- The rule library (rules/*.lua) and what it is built on: sbx.facts (the
-- evidence of a run by process), sbx.rulekit (rules as evidence), the
-- loading of rule files and directories (sbx.verdict), the ATT&CK fields
-- of the behaviour summary and the batch summary.  Every technique id the
-- library names is pinned here to the ATT&CK table (sbx.attack: a current
-- id, under one of its tactics), the table to names read on MITRE's own
-- pages, and docs/batch.md's coverage table is checked against the rules
-- and the table.  No box: tests/techniques_spec.lua
-- and tests/benign_spec.lua run real programs.
local S = require "support"
local attack = require "sbx.attack"
local facts = require "sbx.facts"
local kit = require "sbx.rulekit"
local verdict = require "sbx.verdict"
local behaviour = require "sbx.behaviour"
local batch = require "sbx.batch"

local function exec(pid, ppid, path, argv, extra)
	local e = { kind = "exec", pid = pid, ppid = ppid, path = path, argv = argv, answer = "allow", cwd = "/work" }
	for k, v in pairs(extra or {}) do e[k] = v end
	return e
end

describe("sbx.facts [" .. S.priv .. "]", function()
	it("follows each process's image and parent, a fork without exec runs its parent's", function()
		local F = facts.of { events = {
			exec(2, 1, "/usr/bin/sh", { "sh", "x.sh" }),
			{ kind = "clone", pid = 2, ppid = 1, answer = "allow" },
			-- pid 3: a subshell that never executed; pid 4 its child
			{ kind = "open", pid = 3, ppid = 2, path = "/tmp/out", flags = 577, answer = "allow" },
			exec(4, 3, "/usr/bin/curl", { "curl", "-o", "/tmp/x", "http://c2.example/x" }),
			{ kind = "connect", pid = 4, ppid = 3, family = "inet", addr = "10.0.0.2:80", protocol = "tcp",
				answer = "allow", syscall = "connect" },
			{ kind = "delete", pid = 2, ppid = 1, path = "/work/x.sh", answer = "allow", syscall = "unlink" },
			{ kind = "ptrace", pid = 2, ppid = 1, flags = 0, answer = "deny", syscall = "ptrace" },
		}, sink = { dns = { { hostname = "c2.example", answer = "10.0.0.2" } } } }
		assert.are.equal(2, #F.execs)
		assert.are.same({ "/usr/bin/curl", "/usr/bin/sh", "sh x.sh" },
			{ F.execs[2].image, F.execs[2].parent_image, F.execs[2].parent_cmdline })
		assert.are.same({ "/tmp/out", "/usr/bin/sh", true, true },
			{ F.opens[1].path, F.opens[1].image, F.opens[1].write, F.opens[1].create })
		assert.are.same({ { path = "/tmp/out", how = "open", image = "/usr/bin/sh" } }, F.written)
		assert.are.same({ "10.0.0.2", 80, "tcp", "c2.example", "/usr/bin/curl" },
			{ F.connects[1].ip, F.connects[1].port, F.connects[1].protocol, F.connects[1].hostname,
				F.connects[1].image })
		assert.are.same({ call = "ptrace", image = "/usr/bin/sh" }, F.refused[1])
		assert.are.equal("/usr/bin/sh", F.command)
	end)

	it("takes any table and refuses anything else", function()
		assert.are.same({}, facts.of({}).execs)
		assert.are.same({}, facts.of({ events = "x" }).opens)
		assert.are.same({}, facts.of({ events = { 1, "x", { kind = "open" } } }).opens)
		assert.has_error(function() facts.of(nil) end, "bad argument #1 to 'of' (table expected, got nil)")
	end)
end)

describe("sbx.rulekit [" .. S.priv .. "]", function()
	local rule = kit.technique { id = "T1053.003", name = "cron", tactic = "persistence", severity = 6,
		what = "installed a cron job", write = { "^/etc/cron%.d/" }, exec = { "^crontab [^%-]" },
		unless = { "^crontab /tmp/ok" } }

	local function run_of(events) return { events = events } end

	it("quotes the first evidence and counts the rest", function()
		local run = run_of {
			exec(2, 1, "/usr/bin/crontab", { "crontab", "/tmp/ok" }),
			exec(3, 1, "/usr/bin/crontab", { "/usr/bin/crontab", "/tmp/x" }),
			{ kind = "open", pid = 4, path = "/etc/cron.d/a", flags = 577, answer = "allow" },
			{ kind = "open", pid = 4, path = "/etc/cron.d/b", flags = 1, answer = "allow" } }
		local f = rule.fn(run, facts.of(run))
		assert.are.same({ verdict = "suspicious", severity = 6,
			reason = "installed a cron job: ran `crontab /tmp/x`" }, f)
		run = run_of { { kind = "open", pid = 4, path = "/etc/cron.d/a", flags = 577, answer = "allow" },
			{ kind = "open", pid = 4, path = "/etc/cron.d/b", flags = 1, answer = "allow" } }
		assert.are.equal("installed a cron job: wrote /etc/cron.d/a (2 in all)", rule.fn(run, facts.of(run)).reason)
		-- a read is no write; `unless` leaves a match out
		run = run_of { { kind = "open", pid = 4, path = "/etc/cron.d/a", flags = 0, answer = "allow" },
			exec(2, 1, "/usr/bin/crontab", { "crontab", "/tmp/ok" }) }
		assert.is_nil(rule.fn(run, facts.of(run)))
		assert.are.same({ "T1053.003" }, rule.attack)
		assert.are.equal("installed a cron job (evidence: exec, write)", rule.doc)
	end)

	it("finds what trying every pattern on every text finds, reads between writes too", function()
		-- the patterns' first-byte index must change nothing: anchored and
		-- not, escapes, classes, a first character made optional, `$`
		local pats = { "^/etc/sh", "^%./x", "^a*b", "^a-b", "^a?c", "^ab", "^%a+z", "^[/]etc/p",
			"^.tc", "^$", "x$", "/%.ssh/", "^%%p", "^%-", "^/etc/cron%.d/", "^" }
		local texts = { "", "/etc/shadow", "./x", "b", "aab", "c", "ac", "abz", "/etc/passwd",
			"etc", "zz", "/h/.ssh/id", "%p", "-n", "/etc/cron.d/a", "x", "ax" }
		-- every single pattern, and all of them at once, over every text
		local sets = { pats }
		for _, p in ipairs(pats) do sets[#sets + 1] = { p } end
		for _, set in ipairs(sets) do
			local events = {}
			for i, t in ipairs(texts) do
				-- a write between reads: the read source has no text for it
				events[#events + 1] = { kind = "open", pid = 4, path = "/w" .. i, flags = 577, answer = "allow" }
				events[#events + 1] = { kind = "open", pid = 4, path = t, flags = 0, answer = "allow" }
			end
			local r = kit.technique { id = "T1005", name = "x", what = "w", read = set }
			local want, n = nil, 0
			for _, t in ipairs(texts) do
				for _, p in ipairs(set) do
					if t:find(p) then
						want, n = want or t, n + 1
						break
					end
				end
			end
			local run = run_of(events)
			local f = r.fn(run, facts.of(run))
			local expect = want and ("w: read %s%s"):format(want, n > 1 and (" (%d in all)"):format(n) or "")
			assert.are.equal(expect, f and f.reason, set[1])
		end
	end)

	it("maps a severity to a verdict", function()
		assert.are.same({ "info", "info", "suspicious", "suspicious", "malicious" },
			{ kit.verdict_of(0), kit.verdict_of(2), kit.verdict_of(3), kit.verdict_of(6), kit.verdict_of(7) })
	end)
end)

describe("rule files [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	it("a directory: every .lua file by name, subdirectories, no symlink followed", function()
		local d, rm = S.tmpdir()
		os.execute("chmod 755 " .. S.q(d) .. " && mkdir " .. S.q(d .. "/sub"))
		S.write(d .. "/b.lua", 'return { { name = "b", fn = function() end } }')
		S.write(d .. "/a.lua", 'return { rulekit.technique { id = "T1070.006", name = "a", what = "w", '
			.. 'exec = { "^touch %-d" } } }')
		S.write(d .. "/sub/c.lua", 'return { { name = "c", attack = { "T1529" }, severity = 7, '
			.. 'fn = function() return { verdict = "malicious", severity = 7, reason = "r" } end } }')
		S.write(d .. "/notes.txt", "not a rule")
		S.write(d .. "/elsewhere.lua", 'return { { name = "linked", fn = function() end } }')
		os.execute("ln -s elsewhere.lua " .. S.q(d .. "/z.lua"))
		local rules, skipped, digest = verdict.load(d)
		local names = {}
		for _, r in ipairs(assert(rules, skipped)) do names[#names + 1] = r.name end
		assert.are.same({ "a", "b", "linked", "c" }, names)
		assert.are.same({}, skipped)
		assert.matches("^%x+$", digest)
		-- a finding without ids takes its rule's
		local v = verdict.judge({}, rules)
		assert.are.same({ "malicious", { "T1529" } }, { v.verdict, v.reasons[1].attack })
		-- a directory others can write is refused
		os.execute("chmod 777 " .. S.q(d .. "/sub"))
		local r2, msg = verdict.load(d)
		assert.is_nil(r2)
		assert.matches("writable by others", msg)
		rm()
	end)

	it("dir:list: regular files and directories only, by descriptor; a closed dir raises", function()
		local core = require "sbx.core"
		local d, rm = S.tmpdir()
		S.write(d .. "/f", "x")
		os.execute(("cd %s && mkdir sub && ln -s f link && ln -s /etc elink && mkfifo fifo"):format(S.q(d)))
		local dir = assert(core.open_dir(d))
		local got = {}
		for _, e in ipairs(assert(dir:list())) do got[#got + 1] = e.name .. ":" .. e.type end
		table.sort(got)
		assert.are.same({ "f:file", "sub:dir" }, got)
		dir:close()
		assert.has_error(function() dir:list() end, "attempt to use a closed directory")
		rm()
	end)

	it("a rule's fields are checked", function()
		assert.is_nil((verdict.check_rule { name = "a", fn = print, attack = { "x" } }))
		assert.is_nil((verdict.check_rule { name = "a", fn = print, attack = "T1529" }))
		assert.is_nil((verdict.check_rule { name = "a", fn = print, severity = 11 }))
		assert.is_nil((verdict.check_rule { name = "a", fn = print, tactic = 1 }))
		assert.is_table((verdict.check_rule { name = "a", fn = print, severity = 3, tactic = "impact",
			attack = { "T1529" }, doc = "d" }))
		assert.has_error(function() verdict.load(1) end, "bad argument #1 to 'load' (string expected, got number)")
		assert.is_nil((verdict.load("/nonexistent/rules")))
	end)
end)

-- Ids as MITRE's own pages and release notes name them (ATT&CK v19: the
-- v19 release notes for the ids the Defense Evasion split moved, MITRE's
-- STIX data of v18.1 for the rest, docs/attack.md): a table made again
-- that disagrees fails here.
local PINNED = {
	T1685 = { "Disable or Modify Tools", "defense-impairment" },
	["T1685.004"] = { "Disable or Modify Tools: Disable or Modify Linux Audit System Log", "defense-impairment" },
	["T1685.006"] = { "Disable or Modify Tools: Clear Linux or Mac System Logs", "defense-impairment" },
	T1686 = { "Disable or Modify System Firewall", "defense-impairment" },
	T1690 = { "Prevent Command History Logging", "defense-impairment" },
	["T1070.003"] = { "Indicator Removal: Clear Command History", "stealth" },
	["T1497.003"] = { "Virtualization/Sandbox Evasion: Time Based Checks", "stealth" },
	T1211 = { "Exploitation for Stealth", "stealth" },
	["T1027.018"] = { "Obfuscated Files or Information: Invisible Unicode", "stealth" },
	["T1053.003"] = { "Scheduled Task/Job: Cron", "persistence" },
	["T1059.004"] = { "Command and Scripting Interpreter: Unix Shell", "execution" },
	["T1003.008"] = { "OS Credential Dumping: /etc/passwd and /etc/shadow", "credential-access" },
}

-- revoked in v19, and the id that replaced each (the notes' revocations)
local REVOKED = {
	T1562 = "T1685", ["T1562.001"] = "T1685", ["T1562.002"] = "T1685.001", ["T1562.003"] = "T1690",
	["T1562.004"] = "T1686", ["T1562.006"] = "T1685", ["T1562.012"] = "T1685.004",
	["T1070.001"] = "T1685.005", ["T1070.002"] = "T1685.006", T1656 = "T1684.001", T1672 = "T1684.002",
}

-- nil, or why a rule's ids or tactic disagree with the table
local function attack_problem(r)
	local tactics = {}
	for _, id in ipairs(r.attack or {}) do
		local t, why, to = attack.technique(id)
		if not t then
			return ("rule %s: %s is %s in ATT&CK %s%s"):format(r.name, id, why, attack.version,
				to and ", name " .. to or "")
		end
		for _, x in ipairs(t.tactics) do tactics[x] = true end
	end
	if r.attack and #r.attack > 0 and r.tactic ~= "box" and not tactics[r.tactic] then
		return ("rule %s: tactic %s is not one of %s's"):format(r.name, tostring(r.tactic),
			table.concat(r.attack, ", "))
	end
	return nil
end

describe("sbx.attack [" .. S.priv .. "]", function()
	it("is ATT&CK Enterprise 19.0, its 15 tactics, its 222 techniques and 475 sub-techniques", function()
		assert.are.same({ "19.0", "April 28, 2026" }, { attack.version, attack.date })
		local tactics = attack.tactics()
		assert.are.equal(15, #tactics)
		assert.are.same({ "TA0005", "Stealth" }, { attack.tactic("stealth").id, attack.tactic("stealth").name })
		assert.are.equal("TA0112", attack.tactic("defense-impairment").id)
		assert.is_nil(attack.tactic("defense-evasion"))
		local data = require "sbx.attack_data"
		local n = { 0, 0 }
		for id in pairs(data.techniques) do
			local i = id:find("%.") and 2 or 1
			n[i] = n[i] + 1
		end
		assert.are.same({ 222, 475 }, n)
	end)

	it("names each pinned technique and tactic as MITRE does", function()
		for id, want in pairs(PINNED) do
			local t = attack.technique(id)
			assert.is_table(t, id)
			local has = false
			for _, x in ipairs(t.tactics) do has = has or x == want[2] end
			assert.are.same({ want[1], true }, { t.name, has }, id)
		end
	end)

	it("a revoked id: nil, revoked, its successor; current() names the successor", function()
		for old, new in pairs(REVOKED) do
			assert.are.same({ nil, "revoked", new }, { attack.technique(old) }, old)
			assert.are.same({ new, true }, { attack.current(old) }, old)
		end
		assert.are.same({ "T1685", false }, { attack.current("T1685") })
		assert.are.same({ nil, "unknown" }, { attack.technique("T1999") })
		assert.is_nil(attack.current("T1999"))
	end)

	it("refuses what is not a technique id", function()
		for _, bad in ipairs { 1, false, "", "T1", "t1059", "T1059.4", "T1059.004 ", "TA0005" } do
			assert.has_error(function() attack.technique(bad) end)
			assert.has_error(function() attack.current(bad) end)
		end
		assert.has_error(function() attack.tactic(5) end)
	end)

	it("a rule with a revoked id or another tactic is a problem that names the successor", function()
		assert.matches("T1562.001 is revoked in ATT&CK 19.0, name T1685",
			attack_problem { name = "x", attack = { "T1562.001" }, tactic = "defense-impairment" }, 1, true)
		assert.matches("tactic defense%-evasion is not one of T1685's",
			attack_problem { name = "x", attack = { "T1685" }, tactic = "defense-evasion" })
		assert.is_nil(attack_problem { name = "x", attack = { "T1497.001" }, tactic = "discovery" })
	end)

	it("scripts/attack-table.py: a bundle, then release notes over it (rename, revocation, new id)", function()
		local d, clean = S.tmpdir()
		local function put(name, text)
			S.write(d .. "/" .. name, text)
		end
		local function ap(id, tid, name, tactic, extra)
			return ('{"type":"attack-pattern","id":"attack-pattern--%s","name":"%s",'
				.. '"external_references":[{"source_name":"mitre-attack","external_id":"%s"}],'
				.. '"kill_chain_phases":[{"kill_chain_name":"mitre-attack","phase_name":"%s"}]%s}')
				:format(id, name, tid, tactic, extra or "")
		end
		put("b.json", '{"type":"bundle","objects":['
			.. '{"type":"x-mitre-collection","x_mitre_version":"1.0","modified":"2020-01-02T00:00:00Z"},'
			.. '{"type":"x-mitre-tactic","x_mitre_shortname":"defense-evasion","name":"Defense Evasion",'
			.. '"external_references":[{"source_name":"mitre-attack","external_id":"TA0005"}]},'
			.. ap("a", "T1000", "Hide", "defense-evasion") .. "," .. ap("b", "T1001", "Break", "defense-evasion") .. ","
			.. ap("c", "T1001.001", "Break Some", "defense-evasion") .. ","
			.. ap("d", "T1002", "Old", "defense-evasion", ',"revoked":true') .. ","
			.. '{"type":"relationship","relationship_type":"revoked-by","source_ref":"attack-pattern--d",'
			.. '"target_ref":"attack-pattern--a"}]}')
		put("n.md", "| [ATT&CK v2](/versions/v2) | May 1, 2021 | x |\n\n"
			.. "[Hiding](https://attack.mitre.org/tactics/TA0005/) and "
			.. "[Defense Impairment](https://attack.mitre.org/tactics/TA0112/)\n\n"
			.. "## Techniques\n\n### Enterprise\n\n#### New Techniques\n\n"
			.. "* [Disable or Modify Tools](/techniques/T1685) (v1.0)\n"
			.. "* Disable or Modify Tools: [Sub](/techniques/T1685/001)\n\n"
			.. "#### Major Version Changes\n\n* [Hide Better](/techniques/T1000)\n\n"
			.. "#### Revocations\n\n* Break (revoked by [Disable or Modify Tools](/techniques/T1685))\n"
			.. "* Break Some (revoked by Disable or Modify Tools: [Sub](/techniques/T1685/001))\n\n"
			.. "### Mobile\n\n## Software\n")
		local bundle_only = S.sh(("python3 scripts/attack-table.py --stix %s/b.json"):format(d))
		local out, code = S.sh(("python3 scripts/attack-table.py --stix %s/b.json --notes %s/n.md"):format(d, d))
		clean()
		local one = assert(load(bundle_only, "=bundle", "t", {}))()
		assert.are.same({ "1.0", "2020-01-02", { "Break: Break Some", "defense-evasion" }, { T1002 = "T1000" } },
			{ one.version, one.date, one.techniques["T1001.001"], one.revoked })
		assert.are.equal(0, code)
		local t = assert(load(out, "=notes", "t", {}))()
		assert.are.same({ "2.0", "May 1, 2021" }, { t.version, t.date })
		assert.are.same({ { "Hide Better", "hiding" }, { "Disable or Modify Tools", "defense-impairment" },
			{ "Disable or Modify Tools: Sub", "defense-impairment" } },
			{ t.techniques.T1000, t.techniques.T1685, t.techniques["T1685.001"] })
		assert.are.same({ T1001 = "T1685", ["T1001.001"] = "T1685.001", T1002 = "T1000" }, t.revoked)
		assert.is_nil(t.techniques.T1001)
	end)

	it("rulekit names a revoked id's successor and says both in the rule's doc", function()
		local r = kit.technique { id = "T1562.001", name = "old", tactic = "defense-impairment", severity = 7,
			what = "w", exec = { "^x" } }
		assert.are.same({ "T1685" }, r.attack)
		assert.matches("[ATT&CK 19.0: T1562.001 is now T1685]", r.doc, 1, true)
		r = kit.technique { id = { "T1685", "T1562.004" }, name = "two", what = "w", exec = { "^x" } }
		assert.are.same({ "T1685", "T1686" }, r.attack)
	end)
end)

describe("the rule library [" .. S.priv .. "]", function()
	local rules = assert(verdict.defaults())

	it("names every technique by a current id of the ATT&CK table, under one of its tactics", function()
		local ids, names = {}, {}
		for _, r in ipairs(rules) do
			assert.is_nil(names[r.name], "two rules named " .. r.name)
			names[r.name] = true
			assert.is_nil(attack_problem(r))
			for _, id in ipairs(r.attack or {}) do ids[id] = true end
			assert.is_string(r.doc, r.name)
		end
		local n = 0
		for _ in pairs(ids) do n = n + 1 end
		assert.is_true(n >= 60, ("%d techniques"):format(n))
	end)

	it("docs/batch.md's coverage table is the rules' own", function()
		local out = S.sh(S.bin .. " scripts/rules-table.lua")
		local f = assert(io.open("docs/batch.md"))
		local doc = f:read("a")
		f:close()
		local tbl = doc:match("<!%-%- rules%-table %-%->\n(.-)<!%-%- /rules%-table %-%->")
		assert.is_string(tbl, "docs/batch.md has no rules-table markers")
		assert.are.equal(out, tbl)
	end)
end)

describe("ATT&CK in the summaries [" .. S.priv .. "]", function()
	it("mitre_attack_techniques: each id once, from its most severe finding", function()
		local s = behaviour.summary { events = {} }
		behaviour.judged(s, { reasons = {
			{ rule = "a", verdict = "info", severity = 1, reason = "ran `uname -a`", attack = { "T1082" } },
			{ rule = "b", verdict = "suspicious", severity = 5, reason = "x", attack = { "T1082", "T1041" } } } })
		assert.are.same({
			{ id = "T1041", signature_description = "x", severity = "IMPACT_SEVERITY_MEDIUM", rule = "b" },
			{ id = "T1082", signature_description = "x", severity = "IMPACT_SEVERITY_MEDIUM", rule = "b" } },
			s.mitre_attack_techniques)
		assert.matches("mitre_attack_techniques  T1041 medium %(b%)\n", behaviour.text(s))
	end)

	it("a batch's summary counts the programs per technique", function()
		local s = batch.summary { { program = "a", verdict = "clean", outcome = "exit",
			reasons = { { attack = { "T1082" } }, { attack = { "T1082", "T1033" } } } },
			{ program = "b", verdict = "malicious", outcome = "exit", reasons = { { attack = { "T1082" } } } } }
		assert.are.same({ T1082 = 2, T1033 = 1 }, s.techniques)
		assert.matches("batch: technique T1033: 1\nbatch: technique T1082: 2\n", batch.summary_text(s))
	end)
end)
