-- SPDX-License-Identifier: MIT
-- The behaviour summary (sbx.behaviour, run.lua --json and --behaviour)
-- and the explore helpers (sbx.explore) driven from a script.
-- scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"
local cjson = require "cjson"
local behaviour = require "sbx.behaviour"

local run = S.runlua
local HOSTILE = "build/tests/hostile"
local DROPPER = "build/tests/dropper"

local function summary(...)
	local json = os.tmpname()
	local out, err, code = run("--json", json, ...)
	local t = cjson.decode((assert(S.read(json), err)))
	os.remove(json)
	return t.behaviour, out, err, code
end

describe("the behaviour summary [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	it("names a refused ptrace and a namespace clone (default profile)", function()
		local b = summary(HOSTILE, "all")
		assert.are.same({ "clone", "ptrace" }, b.calls_highlighted)
		assert.are.same({ "namespaces", "ptrace", "refused_calls" }, b.tags)
		assert.are.same({}, b.verdicts)
		assert.truthy(b.behash:find("^sha256:%x+$"))
	end)

	it("lists opens, the exec and a refused connect (strict profile, deny mode)", function()
		local b = summary("--profile", "strict", "--mode", "deny", "--decoys", HOSTILE, "all")
		assert.truthy(#b.files_opened > 0)
		local opened = {}
		for _, p in ipairs(b.files_opened) do opened[p] = true end
		assert.truthy(opened["/etc/shadow"])
		assert.are.same({ "/work/hostile all" }, b.command_executions)
		assert.are.same({ "/work/hostile" }, b.processes_created)
		assert.are.equal("127.0.0.1", b.ip_traffic[1].destination_ip)
		assert.are.equal(4444, b.ip_traffic[1].destination_port)
		assert.truthy(b.tags[1] == "decoy_read")
	end)

	it("lists a dropped file with its mode and sha256", function()
		local b = summary(DROPPER)
		assert.are.equal(1, #b.files_dropped)
		local f = b.files_dropped[1]
		assert.are.equal("/work/dropped.bin", f.path)
		assert.are.equal("0755", f.mode)
		assert.are.equal(21, f.size)
		assert.are.equal(64, #f.sha256)
		assert.are.same({ "/work/dropped.bin" }, b.files_written)
		assert.are.same({ "dropper" }, b.tags)
	end)

	it("records DNS lookups through the sink", function()
		local b = summary("--net", "sink", "getent", "hosts", "evil.example")
		assert.are.same({ { hostname = "evil.example", resolved_ips = { "10.0.0.2" } } }, b.dns_lookups)
		assert.are.same({ "network" }, b.tags)
	end)

	it("builds the process tree from clone and exec events (strict profile)", function()
		local b = summary("--profile", "strict", "--mode", "deny", "/bin/sh", "-c", "/bin/true x; /bin/true y")
		assert.are.same({ "/bin/sh -c /bin/true x; /bin/true y", "/bin/true x", "/bin/true y" },
			b.command_executions)
		assert.are.same({ "/bin/true", "/usr/bin/dash" }, b.processes_created)
		assert.are.equal(1, #b.processes_tree)
		local root = b.processes_tree[1]
		assert.are.equal("/usr/bin/dash", root.name)
		assert.are.equal(2, #root.children)
		assert.are.equal("/bin/true", root.children[1].name)
		assert.are.same({ "exec" }, b.tags)
	end)

	it("records sink traffic as ip_traffic", function()
		local b = summary("--net", "sink", "/usr/bin/python3", "-c", "import socket; "
			.. "s = socket.create_connection(('10.0.0.1', 4444)); s.sendall(b'hello'); s.close()")
		assert.are.same({ { transport_layer_protocol = "tcp", destination_ip = "10.0.0.1",
			destination_port = 4444, bytes = 5 } }, b.ip_traffic)
		assert.are.same({ "network" }, b.tags)
	end)

	it("lists deleted and renamed files and attribute changes (strict profile)", function()
		local b = summary("--profile", "strict", "--mode", "log", "build/tests/fileops", "mkdir:/work/d", "write:/work/d/a",
			"write:/tmp/t", "rename:/work/d/a:/work/d/b", "renameat2:/tmp/t:/tmp/u", "chmod:/work/d/b",
			"fchown:/work/d/b", "setxattr:/tmp/u", "unlink:/tmp/u", "unlink:/work/d/b", "rmdir:/work/d",
			"unlink:/work/d/b")
		assert.are.same({ "/tmp/t", "/tmp/u", "/work/d", "/work/d/a", "/work/d/b" }, b.files_deleted)
		assert.are.same({ "/tmp/u", "/work/d/b" }, b.files_attribute_changed)
		-- a rename's new name is written
		assert.are.same({ "/tmp/t", "/tmp/u", "/work/d/a", "/work/d/b" }, b.files_written)
		assert.are.same({}, b.files_dropped)
		local c = behaviour.canonical(b)
		assert.truthy(c:find("\nfiles_deleted=/work/d/a\n", 1, true))
		assert.truthy(c:find("\nfiles_attribute_changed=/tmp/u\n", 1, true))
	end)

	it("names no delete under the default profile: those calls are not notified there", function()
		local b = summary("build/tests/fileops", "write:/work/a", "rename:/work/a:/work/b",
			"chmod:/work/b", "unlink:/work/b")
		assert.are.same({}, b.files_deleted)
		assert.are.same({}, b.files_attribute_changed)
	end)

	it("has a behash stable over runs, shared by alike programs, changed by one thing more", function()
		local d, rm = S.tmpdir()
		os.execute("cp " .. DROPPER .. " " .. d .. "/twin && chmod -R a+rX " .. d)
		local a = summary(DROPPER).behash
		assert.are.equal(a, summary(DROPPER).behash)
		assert.are.equal(a, summary(d .. "/twin").behash)
		assert.are_not.equal(a, summary(DROPPER, "more").behash)
		assert.are_not.equal(summary(HOSTILE, "ptrace").behash, summary(HOSTILE, "all").behash)
		rm()
	end)

	it("prints --behaviour as aligned text, byte-identical over 5 runs", function()
		local first
		for _ = 1, 5 do
			local _, err, code = run("--net", "sink", "--decoys", "--behaviour", HOSTILE, "all")
			assert.are.equal(0, code)
			first = first or err
			assert.are.equal(first, err)
		end
		assert.truthy(first:find("\ncalls_highlighted        clone\n                         ptrace\n", 1, true))
		assert.truthy(first:find("\nbehash                   sha256:%x+\n$"))
	end)
end)

describe("the explore helpers [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	it("are the REPL's globals, loaded on first call, and print readably", function()
		local keys = 's = explore("build/tests/hostile", {quiet=true})\nr = s:run{"shadow"}\n'
			.. 'r:opened()\ns\nhelp()\ns:close()\n'
		local out = S.sh("printf %s " .. S.q(keys) .. " | " .. S.bin .. " -i 2>&1")
		assert.truthy(out:find("\n/etc/shadow\n", 1, true), out)
		assert.truthy(out:find("\nexplore build/tests/hostile: 1 run(s), the analysis box\n", 1, true), out)
		assert.truthy(out:find("\ndiff(r1, r2)               what differs between two runs' behaviour\n", 1, true), out)
	end)

	it("runs a hostile program and reads its behaviour from a script", function()
		local script = [[
local ex = require "sbx.explore"
local s = assert(ex.explore("build/tests/dropper", { quiet = true }))
local r1 = assert(s:run{})
local r2 = assert(s:run{ "more" })
io.write("read=", r1:read("/work/dropped.bin"), "")
io.write("files=", tostring(r2:files()):gsub("sha256:%x+", "H"), "\n")
io.write("execs=", tostring(r1:execs()), "\n")
io.write("refused=", tostring(r1:refused()), "\n")
io.write("diff=", tostring(ex.diff(r1, r2)):gsub("sha256:?%x+", "H"), "\n")
s:allow("connect", "127.0.0.1:8080")
io.write(tostring(s), "\n")
local h = assert(ex.explore("build/tests/hostile", { quiet = true }))
local r3 = assert(h:run{ "connect" })
io.write("connects=", tostring(r3:connects()), "\n")
h:allow("connect", "127.0.0.1:4444")
io.write("ok=", tostring(select(2, pcall(s.allow, s, "rename", "x"))), "\n")
s:close() h:close()
]]
		local f = os.tmpname()
		local fh = assert(io.open(f, "w"))
		fh:write(script)
		fh:close()
		local out = S.sh(S.bin .. " " .. f .. " 2>&1")
		os.remove(f)
		assert.truthy(out:find("read=\127ELF dropped payload\n", 1, true), out)
		assert.truthy(out:find("files=written: /work/dropped.bin (file 0755, 21 B, H)\n"
			.. "written: /work/note.txt (file 0644, 15 B, H)\n", 1, true), out)
		assert.truthy(out:find("execs=/work/dropper\n", 1, true), out)
		assert.truthy(out:find("refused=(none)\n", 1, true), out)
		assert.truthy(out:find("+ command_executions=<command> more", 1, true), out)
		assert.truthy(out:find("+ files_dropped=/work/note.txt 0644 ", 1, true), out)
		assert.truthy(out:find("+ files_written=/work/note.txt\n", 1, true), out)
		assert.truthy(out:find("explore build/tests/dropper: 2 run(s), the analysis box; "
			.. "allowed connect 127.0.0.1:8080\n", 1, true), out)
		assert.truthy(out:find("connects=connect 127.0.0.1:4444 (allow)\n", 1, true), out)
		assert.truthy(out:find("invalid option 'rename'", 1, true), out)
	end)

	it("is driven through a real terminal (tmux): each helper, then a shell and Ctrl-D", function()
		local has_tmux = select(2, S.sh("command -v tmux >/dev/null")) == 0
		if not has_tmux then return pending("tmux is not installed (scripts/deps.sh installs it)") end
		local dir, cleanup = S.tmpdir()
		-- tmux runs the pane's command through $SHELL, else the user's
		-- login shell: nobody's is nologin, and CI's environment may
		-- have no SHELL; no configuration file either
		local tmux = "SHELL=/bin/sh tmux -f /dev/null -S " .. S.q(dir .. "/sock") .. " "
		local function screen() return (S.sh(tmux .. "capture-pane -p -J -S - 2>/dev/null")) end
		-- the event: text on the terminal after the line typed last (and
		-- after = the next prompt's "> " too: bounded, 60 s)
		local function shows(text, after)
			for _ = 1, 600 do
				local scr = screen()
				local at = after and select(2, scr:find(after, 1, true))
				local found = (not after or at) and select(2, scr:find(text, (at or 0) + 1, true))
				if found and (not after or scr:find("> ", found + 1, true)) then return true end
				S.sh("sleep 0.1")
			end
			return false
		end
		local function type_line(l)
			S.sh(tmux .. "send-keys -l " .. S.q(l) .. " && " .. tmux .. "send-keys Enter")
		end
		assert.are.equal(0, select(2, S.sh(tmux .. "new-session -d -x 160 -y 50 " .. S.q(S.bin))))
		-- the REPL's first prompt before the first key
		assert.is_true(shows("\n> "), screen())
		-- each line typed, and what the terminal then shows before the
		-- next prompt
		local steps = {
			{ 's = explore("build/tests/hostile", {quiet=true})', "" },
			{ 'r = s:run{"shadow"}', "" },
			{ "r:opened()", "/etc/shadow\n" },
			{ "r:execs()", "/work/hostile shadow\n" },
			{ "r:refused()", "" },
			{ "r:files()", "" },
			{ "r:dns()", "" },
			{ 'r2 = s:run{"connect"}', "" },
			{ "r2:connects()", "connect 127.0.0.1:4444 (allow)\n" },
			{ "diff(r, r2)", "+ ip_traffic=tcp 127.0.0.1 4444\n" },
			{ 's:allow("connect", "10.0.0.1:80")', "allowed connect 10.0.0.1:80\n" },
			{ "help()", "help()                     this text\n" },
		}
		local ok, err = pcall(function()
			for i, step in ipairs(steps) do
				type_line(step[1])
				local typed = "> " .. step[1] .. "\n"
				assert(shows(step[2], typed), ("step %d: %s\n%s"):format(i, step[1], screen()))
			end
			type_line("s:shell()")
			assert(shows("$ "), screen())
			type_line("echo in-the-box; ls /work")
			assert(shows("in-the-box\nhostile\n"), screen())
			-- Ctrl-D ends the shell; the REPL is still there
			S.sh(tmux .. "send-keys C-d")
			assert(shows("sandbox: exit 0\n", "in-the-box"), screen())
			-- Ctrl-C at the prompt drops the statement typed so far (two
			-- lines here) and gives a new prompt; the session lives on
			type_line("for i = 1, 3 do")
			S.sh(tmux .. "send-keys -l " .. S.q("print('never' .. i)"))
			assert(shows(">> print('never' .. i)"), screen())
			S.sh(tmux .. "send-keys C-c")
			type_line("print('after ' .. 'ctrl-c ' .. tostring(s.dir ~= nil))")
			assert(shows("\nafter ctrl-c true\n"), screen())
			assert.is_nil(screen():find("never1", 1, true))
			type_line("s:close(); print('closed')")
			assert(shows("\nclosed\n"), screen())
		end)
		S.sh(tmux .. "kill-server 2>/dev/null")
		cleanup()
		assert(ok, err)
	end)

	it("opens an interactive shell in the same tree on a terminal (s:shell)", function()
		local cmd = S.bin .. " -e " .. S.q("require('sbx.explore').explore('build/tests/hostile'):shell()")
		local out = S.sh("/usr/bin/python3 tests/on_pty.py --raw " .. S.q(cmd) .. " '$ ' "
			.. S.q("ls /work; exit\\n"))
		assert.truthy(out:find("\nhostile\r\n", 1, true), out)
		assert.truthy(out:find("sandbox: exit 0\r\n", 1, true), out)
	end)

	it("shows what the shell wrote before its end under the raw settings, past a slow terminal (s:shell)", function()
		-- the caller's terminal reads nothing for a second while the box
		-- writes 30,000 lines and its shell ends: the output still held by
		-- the box's pty and by sbxlua comes out before the terminal gets
		-- its own settings back, each line "\r\n" as the box's pty wrote
		-- it, never "\r\r\n" (the cooked terminal's translation again)
		local cmd = S.bin .. " -e " .. S.q("require('sbx.explore').explore('build/tests/hostile'):shell()")
		local out = S.sh("/usr/bin/python3 tests/on_pty.py --raw " .. S.q(cmd) .. " '$ ' "
			.. S.q("@hold=1:seq 1 30000; exit\\n"))
		local lines = select(2, out:gsub("\r\n", "")) -- every line the terminal showed
		assert.truthy(out:find("\n29999\r\n30000\r\n", 1, true), out:sub(-2000))
		assert.are.equal(0, select(2, out:gsub("\r\r\n", "")), "lines translated twice, of " .. lines)
		assert.truthy(out:find("sandbox: exit 0\r\n", 1, true), out:sub(-2000))
	end)
end)
