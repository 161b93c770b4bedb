-- SPDX-License-Identifier: MIT
-- sbx.html: the HTML page of a run (run.lua --html) and a batch's pages
-- and index (batch.lua --html): the page's text for hand-made results
-- (the fields other parts of sbxlua add: time_ms, ppid, HTTP, types, the
-- capture) and for real boxes (a benign program, a dropper, a program
-- whose arguments and files are hostile HTML), read here as text; the
-- browser's view is tests/html_browser_spec.lua's.
-- scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"
local html = require "sbx.html"
local core = require "sbx.core"

-- ---- what a page may hold ----

-- the elements and attributes the renderer writes; nothing else may be
-- in a page, whatever the result held
local ELEMENTS = { html = 1, head = 1, meta = 1, title = 1, style = 1, body = 1, h1 = 1, h2 = 1,
	h3 = 1, section = 1, table = 1, thead = 1, tbody = 1, tr = 1, th = 1, td = 1, code = 1, span = 1,
	ul = 1, ol = 1, li = 1, p = 1, b = 1, a = 1, br = 1, pre = 1 }
local VOID = { meta = true, br = true }
local ATTRIBUTES = {
	['lang="en"'] = true, ['charset="utf-8"'] = true, ['class="esc"'] = true, ['class="pid"'] = true,
	['class="verdict"'] = true, ['class="lines"'] = true, ['class="out"'] = true, ['name="referrer"'] = true,
	['content="no-referrer"'] = true, ['http-equiv="Content-Security-Policy"'] = true,
	['content="' .. html.CSP .. '"'] = true,
}

local function attributes_ok(attrs)
	for a in attrs:gmatch("%S+=\"[^\"]*\"") do
		if not ATTRIBUTES[a] and not a:match('^id="%l+"$') and not a:match('^href="%x+%.html"$') then
			return false, a
		end
	end
	-- every attribute is one of those: nothing left once they are taken out
	local rest = attrs:gsub('%S+="[^"]*"', ""):gsub("%s", "")
	if rest ~= "" then return false, rest end
	return true
end

-- The problems of a page as HTML, "" when none: UTF-8 throughout, no
-- control byte but newlines, one doctype, only the renderer's elements
-- and attributes, every element closed in order, no "<" in any text.
local function problems(page)
	local p = {}
	if not utf8.len(page) then p[#p + 1] = "not UTF-8" end
	if page:find("[%z\1-\9\11-\31\127]") then p[#p + 1] = "a control byte" end
	if page:sub(1, 16) ~= "<!DOCTYPE html>\n" then p[#p + 1] = "no doctype" end
	local body = page:sub(17):gsub("<style>.-</style>", "<style></style>", 1)
	local stack, tags = {}, 0
	for close, name, attrs in body:gmatch("<(/?)([%w]*)([^<>]*)>") do
		tags = tags + 1
		if not ELEMENTS[name] then p[#p + 1] = "element " .. name end
		local ok, bad = attributes_ok(attrs)
		if not ok then p[#p + 1] = "attribute " .. bad end
		if close == "/" then
			local top = table.remove(stack)
			if top ~= name then p[#p + 1] = ("</%s> closes <%s>"):format(name, tostring(top)) end
		elseif not VOID[name] then
			stack[#stack + 1] = name
		end
	end
	if #stack > 0 then p[#p + 1] = "unclosed " .. table.concat(stack, " ") end
	local _, lt = body:gsub("<", "")
	if lt ~= tags then p[#p + 1] = "a < outside a tag" end
	local _, gt = body:gsub(">", "")
	if gt ~= tags then p[#p + 1] = "a > outside a tag" end
	return table.concat(p, ", ")
end

local function section(page, id)
	return page:match('<section id="' .. id .. '">(.-)</section>')
end

-- ---- hostile strings ----

local SCRIPT = "<script>document.title='pwned'</script>"
local IMG = "\"><img src=x onerror=document.title='pwned'>"
-- file names hold no "/": these are what a box can name a file
local FILE_IMG = "\"><img src=x onerror=document.title='pwned'>"
local FILE_SCRIPT = "<script>document.title='pwned'<"
local FILE_CTRL = "a\27[31mb\rc"
local FILE_BAD = "bad\255\254utf8"

describe("sbx.html text", function()
	it("(the page checker finds what it looks for)", function()
		local head = "<!DOCTYPE html>\n"
		assert.are.equal("", problems(head .. "<html><p>a &lt; b</p></html>"))
		assert.truthy(problems(head .. "<html><img src=x></html>"):find("element img", 1, true))
		assert.truthy(problems(head .. '<html><p onerror="x">a</p></html>'):find("attribute", 1, true))
		assert.truthy(problems(head .. "<html><p>a < b</p></html>"):find("outside", 1, true))
		assert.truthy(problems(head .. "<html><p><b>a</p></b></html>"):find("closes", 1, true))
		assert.truthy(problems(head .. "<html>\27</html>"):find("control", 1, true))
		assert.truthy(problems(head .. "<html>\255</html>"):find("UTF-8", 1, true))
	end)

	it("writes the five characters of markup as entities", function()
		assert.are.equal("&amp;&lt;&gt;&quot;&#39;", html.text("&<>\"'"))
		assert.are.equal("a&lt;script&gt;b", html.text("a<script>b"))
	end)

	it("shows control bytes, bytes that are not UTF-8 and hiding code points as escapes", function()
		local e = function(s) return '<span class="esc">' .. s .. "</span>" end
		assert.are.equal("a" .. e("\\x1b") .. "[31m", html.text("a\27[31m"))
		assert.are.equal(e("\\x00") .. e("\\n") .. e("\\t") .. e("\\r") .. e("\\x7f"), html.text("\0\n\t\r\127"))
		assert.are.equal(e("\\xff") .. e("\\xfe"), html.text("\255\254"))
		-- an overlong "/", a surrogate, a sequence cut short, past U+10FFFF
		assert.are.equal(e("\\xc0") .. e("\\xaf"), html.text("\192\175"))
		assert.are.equal(e("\\xed") .. e("\\xa0") .. e("\\x80"), html.text("\237\160\128"))
		assert.are.equal(e("\\xe2") .. e("\\x82"), html.text("\226\130"))
		assert.are.equal(e("\\xf4") .. e("\\x90") .. e("\\x80") .. e("\\x80"), html.text("\244\144\128\128"))
		-- right-to-left override, zero-width space, C1 CSI, byte order mark
		assert.are.equal("x" .. e("\\u{202E}") .. e("\\u{200B}") .. e("\\u{009B}") .. e("\\u{FEFF}"),
			html.text("x\u{202E}\u{200B}\u{9B}\u{FEFF}"))
		assert.are.equal("café ✓ 𝄞", html.text("café ✓ 𝄞"))
		assert.are.equal("12", html.text(12))
	end)

	it("leaves every page valid whatever bytes a result holds", function()
		math.randomseed(30)
		for _ = 1, 200 do
			local bytes = {}
			for i = 1, math.random(0, 40) do bytes[i] = string.char(math.random(0, 255)) end
			local s = table.concat(bytes) .. "<>&\"'"
			local res = { outcome = s, exit_code = 0, digest = s,
				events = { { kind = "open", path = s, answer = "deny", errno = s, pid = 2, time_ms = 1 },
					{ kind = "exec", path = s, argv = { s, s }, answer = "allow", pid = 2, ppid = 1, time_ms = 2 },
					{ kind = "note", text = s } },
				behaviour = { command = s, tags = { s }, command_executions = { s },
					processes_tree = { { name = s, process_id = s, children = { { name = s, process_id = "3" } } } },
					files_dropped = { { path = s, sha256 = s, size = 3, mode = s, type = s, mime = s } },
					dns_lookups = { { hostname = s, resolved_ips = { s } } },
					ip_traffic = { { transport_layer_protocol = s, destination_ip = s, destination_port = 80 } },
					http_conversations = { { method = s, url = s, host = s, port = 80, headers = { s },
						body_sha256 = s, body_size = 1 } }, has_pcap = true },
				pcap = s, isolation = { namespaces = { [s] = true }, seccomp = true, seccomp_profile = s },
				verified = { namespaces = { [s] = s } } }
			local page = html.page(res, { program = s, args = { s }, sha256 = s,
				verdict = { verdict = s, severity = 5, reasons = { { rule = s, reason = s, attack = { s }, tactic = s } } } })
			assert.are.equal("", problems(page))
			assert.are.equal("", problems(html.index { { program = s, verdict = s, outcome = s, sha256 = s } }))
		end
	end)

	it("renders a result of any shape: every field of any type", function()
		-- the names the page reads, at any depth, with values of any type
		local names = { "outcome", "exit_code", "events", "kind", "path", "pid", "ppid", "time_ms", "answer",
			"errno", "count", "call", "nr", "syscall", "addr", "argv", "behaviour", "command", "tags", "behash",
			"processes_tree", "name", "process_id", "children", "command_executions", "files_dropped", "size",
			"mode", "sha256", "type", "mime", "executed_from_memory", "dns_lookups", "hostname", "resolved_ips",
			"ip_traffic", "transport_layer_protocol", "destination_ip", "destination_port", "bytes",
			"http_conversations", "method", "url", "host", "port", "headers", "body_sha256", "body_size",
			"has_pcap", "pcap", "limits", "wall", "memory", "value", "enforcement", "uncounted", "measured",
			"memory_peak", "cpu", "isolation", "namespaces", "private_root", "seccomp", "seccomp_profile",
			"landlock", "landlock_abi", "network", "host_root", "verified", "digest", "run_as", "verdict",
			"severity", "reasons", "rule", "reason", "attack", "tactic", "code", "text", "cause" }
		local function any(depth)
			local r = math.random(depth > 2 and 5 or 8)
			if r == 1 then return math.random(-5, 5) end
			if r == 2 then return math.random() * 1e6 end
			if r == 3 then return math.random(2) == 1 end
			if r == 4 or r == 5 then return string.char(math.random(0, 255), 60, math.random(0, 255)) end
			local t = {}
			for i = 1, math.random(0, 3) do t[i] = any(depth + 1) end
			for _, name in ipairs(names) do
				if math.random(7) == 1 then t[name] = any(depth + 1) end
			end
			return t
		end
		math.randomseed(3030)
		for _ = 1, 300 do
			local res, meta = any(0), any(0)
			if type(res) ~= "table" then res = { outcome = res } end
			if type(meta) ~= "table" then meta = nil end
			assert.are.equal("", problems(html.page(res, meta)))
		end
		-- every list of records holding what is not a record, every value a table
		local odd = { 1, true, "x", {}, { {} } }
		for _, v in ipairs { odd, {}, 7, "x", true } do
			local rec = {}
			for _, name in ipairs(names) do rec[name] = v end
			local b = { processes_tree = { rec, v }, files_dropped = { rec, v }, dns_lookups = { rec, v },
				ip_traffic = { rec, v }, http_conversations = { rec, v }, tags = { rec, v }, has_pcap = true,
				command_executions = { rec, v } }
			local res = { events = { rec, v }, behaviour = b, limits = { wall = rec, memory = v }, pcap = v,
				measured = rec, isolation = rec, verified = rec, run_as = { rec, v }, files_dropped = { rec, v } }
			assert.are.equal("", problems(html.page(res, { program = v, args = { rec, v },
				verdict = { verdict = v, reasons = { rec, v } } })))
			assert.are.equal("", problems(html.index { rec, v }))
		end
	end)

	it("refuses arguments of the wrong type", function()
		assert.has_error(function() html.page(nil) end, "bad argument #1 to 'page' (table expected, got nil)")
		assert.has_error(function() html.page({}, "x") end,
			"bad argument #2 to 'page' (table or nil expected, got string)")
		assert.has_error(function() html.index("x") end, "bad argument #1 to 'index' (table expected, got string)")
		assert.has_error(function() html.file_name(1) end,
			"bad argument #1 to 'file_name' (table expected, got number)")
		assert.has_error(function() html.open_dir({}) end,
			"bad argument #1 to 'open_dir' (string expected, got table)")
	end)
end)

describe("sbx.html page of a hand-made result", function()
	-- the fields other parts add: every event's time_ms and ppid, the
	-- dropped files' type and MIME type, HTTP conversations, the capture
	local res = {
		outcome = "exit", exit_code = 0,
		events = {
			{ kind = "exec", path = "/work/get", argv = { "/work/get", SCRIPT }, pid = 2, ppid = 1,
				answer = "allow", nr = 59, syscall = "execve", time_ms = 3 },
			{ kind = "connect", family = "inet", addr = "10.0.0.1:80", pid = 2, ppid = 1, answer = "allow",
				nr = 42, syscall = "connect", time_ms = 17 },
			{ kind = "open", path = "/etc/" .. IMG, pid = 3, ppid = 2, answer = "deny", errno = "EACCES",
				nr = 257, syscall = "openat", time_ms = 21 },
			{ kind = "exit", code = 0 },
		},
		behaviour = {
			files_dropped = { { path = "/tmp/" .. FILE_IMG, size = 120, mode = "0755", sha256 = ("ab"):rep(32),
				type = "ELF", mime = "application/x-executable" } },
			http_conversations = { { method = "GET", url = "http://evil.test/" .. SCRIPT, host = "evil.test",
				port = 80, headers = { "User-Agent: " .. IMG }, body_sha256 = ("cd"):rep(32), body_size = 0 } },
			has_pcap = true,
		},
		pcap = "/keep/sink.pcap",
	}
	local page = html.page(res, { program = "/work/get" })

	it("is valid and holds no element a string of the box made", function()
		assert.are.equal("", problems(page))
		assert.is_nil(page:find("<script", 1, true))
		assert.is_nil(page:find("<img", 1, true))
	end)

	it("has the timeline, with each event's time and parent", function()
		local t = assert(section(page, "timeline"))
		assert.truthy(t:find("<td>17</td><td>2</td><td>1</td><td>connect</td><td><code>connect 10.0.0.1:80</code>",
			1, true))
		assert.truthy(t:find("<td>21</td><td>3</td><td>2</td><td>open</td>", 1, true))
	end)

	it("has the HTTP conversations, the capture and the files' types", function()
		local n = assert(section(page, "network"))
		assert.truthy(n:find("<td>GET</td><td><code>http://evil.test/&lt;script&gt;document.title=&#39;pwned&#39;"
			.. "&lt;/script&gt;</code></td><td><code>evil.test</code></td><td>80</td>", 1, true))
		assert.truthy(n:find("User-Agent: &quot;&gt;&lt;img", 1, true))
		assert.truthy(n:find("capture: <code>/keep/sink.pcap</code>", 1, true))
		local f = assert(section(page, "files"))
		assert.truthy(f:find("<th>type</th><th>MIME</th>", 1, true))
		assert.truthy(f:find("<td>ELF</td><td>application/x-executable</td>", 1, true))
	end)

	it("takes a dropped file's type from the result when the summary has none", function()
		local p = html.page { files_dropped = { { path = "/tmp/x", size = 4, type = "ELF", mime = "application/x-pie-executable" } },
			behaviour = { files_dropped = { { path = "/tmp/x", size = 4, mode = "0755" } } } }
		assert.truthy(section(p, "files"):find("<td>0755</td><td>4 B</td><td>ELF</td><td>application/x-pie-executable</td>",
			1, true))
	end)

	it("marks a forked child and a process that ran on in the process tree, as the text does", function()
		local p = html.page { behaviour = { processes_tree = { { name = "/bin/sh", process_id = "2", children = {
			{ name = "/bin/sh", process_id = "3", fork = true, outlived = true } } } } } }
		local t = assert(section(p, "processes"))
		assert.truthy(t:find("<code>/bin/sh</code> <span class=\"pid\">pid 2</span>", 1, true), t)
		assert.truthy(t:find("<code>/bin/sh</code> (fork) (ran on) <span class=\"pid\">pid 3</span>", 1, true), t)
	end)

	it("has the refused call", function()
		local r = assert(section(page, "refused"))
		assert.truthy(r:find("<td>3</td><td><code>open /etc/&quot;&gt;&lt;img src=x onerror=document.title="
			.. "&#39;pwned&#39;&gt;</code></td><td>deny</td><td>EACCES</td>", 1, true))
	end)

	it("shows a section only when its data is there", function()
		local bare = html.page { outcome = "exit", exit_code = 0, events = { { kind = "exit", code = 0 } } }
		assert.are.equal("", problems(bare))
		for _, id in ipairs { "verdict", "processes", "timeline", "network", "files", "refused", "limits", "isolation" } do
			assert.is_nil(section(bare, id), id)
		end
		assert.truthy(section(bare, "run"))
		assert.truthy(section(bare, "report"):find("sandbox: exit 0", 1, true))
		-- no capture named without has_pcap, no type column without types
		local p = html.page { behaviour = { files_dropped = { { path = "/tmp/x", size = 1 } } }, pcap = "/x.pcap" }
		assert.is_nil(section(p, "network"))
		assert.is_nil(section(p, "files"):find("MIME", 1, true))
	end)
end)

-- ---- real boxes ----

-- Runs run.lua with --html PAGE and args; returns the page, the report
-- (stderr) and the exit status.
local function html_run(...)
	local dir, rm = S.tmpdir()
	local path = dir .. "/page.html"
	local _, err, code = S.runlua("--html", path, ...)
	local page = S.read(path)
	rm()
	return page, err, code
end

-- a shell that writes each of its arguments as a file of /tmp, with
-- content its own name
local DROP = 'for n in "$@"; do printf "%s" "$n" > "/tmp/$n"; done'

describe("run.lua --html", function()
	S.leak_check(before_each, after_each, assert)

	it("writes the page of a benign program: the program, its outcome, the report's lines", function()
		local page, err, code = html_run("-v", "/bin/true")
		assert.are.equal(0, code, err)
		assert.are.equal("", problems(assert(page)))
		assert.truthy(section(page, "run"):find("<th>program</th><td><code>/bin/true</code></td>", 1, true))
		assert.truthy(section(page, "run"):find("<th>outcome</th><td>exit</td>", 1, true))
		assert.truthy(section(page, "report"):find("<code>sandbox: exit 0</code>", 1, true))
		-- no judgement without --explore: no verdict is made up
		assert.is_nil(section(page, "verdict"))
		assert.truthy(section(page, "limits"):find("limit: wall 60 s", 1, true))
	end)

	it("claims exactly what the isolation report claims", function()
		local page, err = html_run("-v", "/bin/true")
		local iso = assert(section(page, "isolation"))
		-- the report says landlock is set and unverifiable: never more here
		assert.truthy(err:find("landlock: ABI %d+ %(set; unverifiable"))
		assert.truthy(iso:find("<td>landlock</td><td>ABI %d+</td><td>unverifiable</td>"))
		-- each namespace the report calls verified, and the report's digest
		assert.truthy(err:find("namespaces: [%w ]+ %(verified%)"))
		for n in err:match("namespaces: ([%w ]+) %(verified%)"):gmatch("%w+") do
			assert.truthy(iso:find("<td>namespace " .. n .. "</td><td>yes</td><td>verified</td>", 1, true), n)
		end
		assert.truthy(iso:find(err:match("digest: (sha256:%x+)"), 1, true))
		-- the report's claims, one row each; rlimits and uid are not lines of it
		assert.is_nil(iso:find("rlimits", 1, true))
		assert.is_nil(iso:find(">uid<", 1, true))
	end)

	it("writes the page of a dropper: the verdict, its findings, the dropped file and its hash", function()
		local page, err = html_run("--explore", "/bin/sh", "-c",
			"printf '\\177ELF payload' > /tmp/dropped.bin; chmod 755 /tmp/dropped.bin")
		assert.are.equal("", problems(assert(page, err)))
		local v = assert(section(page, "verdict"))
		assert.truthy(v:find("verdict: <b>%l+</b> %(severity %d+%)"))
		assert.truthy(v:find("<code>wrote_executable</code>", 1, true))
		local f = assert(section(page, "files"))
		assert.truthy(f:find("<code>/tmp/dropped.bin</code>", 1, true))
		assert.truthy(f:find(core.sha256("\127ELF payload"), 1, true))
		assert.truthy(section(page, "processes"):find("<code>/usr/bin/dash</code>", 1, true))
	end)

	it("escapes a hostile program's arguments and file names: no element of theirs exists", function()
		local page, err, code = html_run("--explore", "/bin/sh", "-c", DROP, SCRIPT, FILE_IMG, FILE_SCRIPT,
			FILE_CTRL, FILE_BAD, IMG)
		assert.are.equal(0, code, err)
		assert.are.equal("", problems(assert(page)))
		assert.is_nil(page:find("<script", 1, true))
		assert.is_nil(page:find("<img", 1, true))
		assert.is_nil(page:find("onerror=[^<]*>"))
		local run = section(page, "run")
		assert.truthy(run:find("<li><code>&lt;script&gt;document.title=&#39;pwned&#39;&lt;/script&gt;</code></li>",
			1, true))
		local f = assert(section(page, "files"))
		assert.truthy(f:find("<code>/tmp/&quot;&gt;&lt;img src=x onerror=document.title=&#39;pwned&#39;&gt;</code>",
			1, true))
		assert.truthy(f:find("<code>/tmp/&lt;script&gt;document.title=&#39;pwned&#39;&lt;</code>", 1, true))
		-- the escape byte and the carriage return shown, not sent
		assert.truthy(f:find('<code>/tmp/a<span class="esc">\\x1b</span>[31mb<span class="esc">\\r</span>c</code>',
			1, true))
		-- bytes that are not UTF-8: as the JSON result escapes them
		assert.truthy(f:find("<code>/tmp/bad\\xff\\xfeutf8</code>", 1, true))
	end)

	it("refuses a symlink at FILE before the box exists, and writes nothing through it", function()
		local dir, rm = S.tmpdir()
		local victim = dir .. "/victim"
		S.write(victim, "keep")
		os.execute("ln -s victim " .. S.q(dir .. "/page.html"))
		local _, err, code = S.runlua("--html", dir .. "/page.html", "/bin/sh", "-c", "echo ran")
		assert.are.equal(126, code)
		assert.truthy(err:find("--html " .. dir .. "/page.html: ", 1, true), err)
		assert.is_nil(err:find("ran", 1, true))
		assert.are.equal("keep", S.read(victim))
		rm()
	end)
end)

-- Runs batch.lua args (a shell string); returns stderr and the status.
local function batchlua(args)
	local err = os.tmpname()
	local _, code = S.sh(S.bin .. " batch.lua --wall 5 --progress never " .. args .. " 2>" .. err
		.. " >/dev/null </dev/null")
	local e = S.read(err)
	os.remove(err)
	return e, code
end

local function ls(dir)
	local names = {}
	for n in S.sh("ls -A " .. S.q(dir)):gmatch("[^\n]+") do names[#names + 1] = n end
	table.sort(names)
	return names
end

describe("batch.lua --html", function()
	S.leak_check(before_each, after_each, assert)

	-- three samples: a benign one, one that exits 3, one named as HTML
	local function samples(dir)
		os.execute(("mkdir %s/in && cp tests/progs/batch/benign.sh tests/progs/batch/exit3.sh %s/in/"
			.. " && printf '#!/bin/sh\\necho hi\\n' > %s && chmod -R a+rX %s/in")
			:format(S.q(dir), S.q(dir), S.q(dir .. "/in/" .. FILE_SCRIPT .. ".sh"), S.q(dir)))
		return dir .. "/in"
	end

	it("writes one page per program, named by a hash, and an index linking them with verdicts", function()
		local dir, rm = S.tmpdir()
		local input = samples(dir)
		local err, code = batchlua("--html " .. S.q(dir .. "/pages") .. " " .. S.q(input))
		assert.are.equal(0, code, err)
		local names = ls(dir .. "/pages")
		assert.are.equal(4, #names, table.concat(names, " "))
		local links = {}
		for i = 1, 3 do
			assert.truthy(names[i]:match("^%x+%.html$") and #names[i] == 69, names[i])
			local page = S.read(dir .. "/pages/" .. names[i])
			assert.are.equal("", problems(page))
			assert.truthy(section(page, "verdict"), names[i])
			links[#links + 1] = '<a href="' .. names[i] .. '">'
		end
		assert.are.equal("index.html", names[4])
		local index = S.read(dir .. "/pages/index.html")
		assert.are.equal("", problems(index))
		for _, l in ipairs(links) do assert.truthy(index:find(l, 1, true), l) end
		assert.truthy(index:find("/in/&lt;script&gt;document.title=&#39;pwned&#39;&lt;.sh</code>", 1, true))
		assert.truthy(index:find("<code>" .. input .. "/exit3.sh</code>", 1, true))
		assert.is_nil(index:find("<script", 1, true))
		-- the directory is the caller's alone when batch made it
		assert.are.equal("700", (S.sh("stat -c %a " .. S.q(dir .. "/pages")):gsub("%s", "")))
		rm()
	end)

	it("leaves a page's name alone when something is there, and never follows a symlink", function()
		local dir, rm = S.tmpdir()
		local input = samples(dir)
		local pages = dir .. "/pages"
		assert.are.equal(0, select(2, batchlua("-q --html " .. S.q(pages) .. " " .. S.q(input .. "/exit3.sh"))))
		local name = ls(pages)[1]
		S.write(dir .. "/victim", "keep")
		os.remove(pages .. "/" .. name)
		os.execute("ln -s ../victim " .. S.q(pages .. "/" .. name))
		local err, code = batchlua("--html " .. S.q(pages) .. " " .. S.q(input .. "/exit3.sh"))
		assert.are.equal(0, code, err)
		assert.truthy(err:find("batch: --html: write " .. pages .. "/" .. name .. ": ", 1, true), err)
		assert.are.equal("keep", S.read(dir .. "/victim"))
		assert.are.equal("link", core.lstat(pages .. "/" .. name).type)
		-- DIR itself a symlink: refused before any box
		os.execute("ln -s pages " .. S.q(dir .. "/alias"))
		err, code = batchlua("--html " .. S.q(dir .. "/alias") .. " " .. S.q(input .. "/exit3.sh"))
		assert.are.equal(126, code)
		assert.truthy(err:find("--html " .. dir .. "/alias: ", 1, true), err)
		rm()
	end)

	it("is refused with --merge, which runs nothing", function()
		local dir, rm = S.tmpdir()
		local err, code = batchlua("--merge --html " .. S.q(dir .. "/pages") .. " /dev/null")
		assert.are.equal(126, code)
		assert.are.equal("sbxlua: --html: the pages of a batch's runs, not with --merge\n", err)
		rm()
	end)
end)
