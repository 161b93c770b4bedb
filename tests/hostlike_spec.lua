-- SPDX-License-Identifier: MIT
-- The analysis box changes nothing a host would not (docs/standard-box.md,
-- "What the analysis box refuses"): ptrace between the box's processes,
-- set-id bits on the box's own files and the other calls an unprivileged
-- host user may make reach the kernel, while ptrace never reaches outside
-- the box and the host never sees a set-id bit; the jail lets memfd_create
-- through (the supervisor makes and counts it) and passes CPython's
-- test_os.  Real boxes, as root and as uid 65534 (scripts/test.sh).
local S = require "support"

local TRACER = "build/tests/tracer"

-- a run of the tracer in the box: run.lua's options, then the tracer's
-- arguments
local function tracer(opts, ...)
	-- the program, bound at /work/tracer
	local argv = {}
	for _, a in ipairs(opts) do argv[#argv + 1] = a end
	argv[#argv + 1] = TRACER
	for _, a in ipairs { ... } do argv[#argv + 1] = a end
	return S.json_run(table.unpack(argv))
end

local function events_of(res, kind)
	local out = {}
	for _, e in ipairs(res and res.events or {}) do
		if e.kind == kind then out[#out + 1] = e end
	end
	return out
end

-- the host mode bits of every regular file under dir: "path mode" lines
local function host_modes(dir)
	return (S.sh("find " .. S.q(dir) .. " -type f -printf '%P %m\\n' | sort"))
end

describe("ptrace in the analysis box [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	it("lets an anti-debugging sample reach its payload (PTRACE_TRACEME answers 0, as on a host)", function()
		local out, err, code, res = tracer({ "--explore" }, "antidebug", "/tmp/app.log")
		assert.are.equal(0, code, err)
		assert.are.equal("payload: /tmp/app.log truncated\n", out)
		-- recorded all the same: the event, and the rule that reads it
		local p = events_of(res, "ptrace")
		assert.are.equal(1, #p, err)
		assert.are.equal("allow", p[1].answer)
		assert.matches("debugger_checks", err, nil, true)
		-- the jail still refuses it: the sample takes its other way
		out, err, code = tracer({}, "antidebug", "/tmp/app.log")
		assert.are.equal(3, code, err)
		assert.are.equal("debugged EPERM\n", out)
	end)

	it("says the program ended soon after a refusal it did not get past", function()
		-- the analysis box with the jail's profile, which refuses ptrace
		local _, err, code, res = tracer({ "--explore", "--profile", "default" }, "antidebug", "/tmp/app.log")
		assert.are.equal(3, code, err)
		assert.matches("sandbox: note: the program ended %d+ ms after a refused ptrace\n", err)
		local n = events_of(res, "note")
		local found = false
		for _, e in ipairs(n) do
			if e.cause == "refusal_end" then found = e.call == "ptrace" and type(e.ms) == "number" and e.ms >= 0 end
		end
		assert.is_true(found, err)
		-- judged: a finding
		assert.matches("finding: refusal_end: the program ended %d+ ms after a refused ptrace", err)
		-- the jail says nothing of it: its refusals are its purpose
		_, err, code = tracer({}, "antidebug", "/tmp/app.log")
		assert.are.equal(3, code, err)
		assert.is_nil(err:find("ended", 1, true), err)
		-- and none where the program got past its refusals
		_, err = tracer({ "--explore" }, "antidebug", "/tmp/app.log")
		assert.is_nil(err:find("refusal_end", 1, true), err)
	end)

	it("traces a box process at every call while the supervisor reads its calls right", function()
		local out, err, code, res = tracer({ "--explore" }, "trace", "/tmp/traced-file")
		assert.are.equal(0, code, err)
		assert.are.equal("traced-exec\ntraced 1 stops, exit 0\nseize ok\n", out)
		-- the traced child's open and exec, read by the supervisor
		-- through its own pidfd while the tracer held the child
		local opened, ran = false, false
		for _, e in ipairs(events_of(res, "open")) do
			if e.path == "/tmp/traced-file" then opened = true end
		end
		for _, e in ipairs(events_of(res, "exec")) do
			if e.argv and e.argv[2] == "traced-exec" and e.path == "/bin/echo" then ran = true end
		end
		assert.is_true(opened, err)
		assert.is_true(ran, err)
	end)

	it("sets another box process's limits, never init's", function()
		local out, err, code = S.runlua("--explore", "/bin/sh", "-c",
			"prlimit --pid 1 --nofile=1:1 2>/dev/null; echo $?; sleep 1 & prlimit --pid $! --nofile=64:64; echo $?")
		assert.are.equal(0, code, err)
		assert.are.equal("1\n0\n", out)
		assert.matches("sandbox: denied: syscall 302 (prlimit64) (EPERM)", err, nil, true)
	end)

	it("never reaches outside the box: not init, not the supervisor, not a host process", function()
		-- the box's init (pid 1) is not dumpable: the kernel refuses it
		local out, err, code = tracer({ "--explore" }, "attach", "1")
		assert.are.equal(0, code, err)
		assert.matches("^attach EPERM\nvm_readv EPERM\n", out)
		-- a host pid (this test's own process; the supervisor is sbxlua,
		-- its child) names no process in the box's pid namespace
		for _, pid in ipairs { S.pid(), tostring(math.tointeger(tonumber(S.pid())) + 1) } do
			out, err, code = tracer({ "--explore" }, "attach", pid)
			assert.are.equal(0, code, err)
			assert.matches("^attach E[A-Z]+\nvm_readv E[A-Z]+\n", out)
			assert.is_nil(out:find("attach ok", 1, true), out)
			assert.is_nil(out:find("vm_readv ok", 1, true), out)
		end
	end)
end)

describe("set-id bits in the analysis box [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	local SCRIPT = "cp /bin/true /tmp/su && chmod 4755 /tmp/su && stat -c %a /tmp/su && "
		.. "cp /bin/true /work/sg && chmod 2755 /work/sg && stat -c %a /work/sg"

	it("are set on the box's own files, and the host never sees one", function()
		local d, rm = S.tmpdir()
		local keep = d .. "/keep"
		local out, err, code = S.runlua("--explore", "--keep", keep, "/bin/sh", "-c", SCRIPT)
		assert.are.equal(0, code, err)
		assert.are.equal("4755\n2755\n", out)
		-- the copies the host keeps: 0600, never a set-id bit
		local modes = host_modes(keep)
		assert.matches("tmp/su 600\n", modes, nil, true)
		assert.matches("work/sg 600\n", modes, nil, true)
		for mode in modes:gmatch(" (%d+)\n") do assert.is_true(#mode <= 3, modes) end
		rm()
	end)

	it("stay refused in a host directory bound writable (watch-rw), and the sweep stays", function()
		local d, rm = S.tmpdir()
		os.execute("chmod 777 " .. S.q(d))
		local out, err, code = S.runlua("--explore", "--rw", d .. ":/srv", "/bin/sh", "-c",
			"cp /bin/true /srv/su; chmod 4755 /srv/su; echo $?; stat -c %a /srv/su")
		assert.are.equal(0, code, err)
		assert.are.equal("1\n755\n", out)
		local _, verr = S.runlua("--explore", "--verbose", "--rw", d .. ":/srv", "/bin/true")
		assert.matches("sandbox: seccomp: profile watch-rw", verr, nil, true)
		assert.are.equal("su 755\n", host_modes(d))
		rm()
	end)
end)

describe("memfd_create in the jail [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	it("is allowed with a host's flags, and an exec of it is recorded", function()
		local out, err, code, res = S.json_run("/usr/bin/python3", "-c", [[
import os
fd = os.memfd_create("payload", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
os.write(fd, open("/bin/echo", "rb").read())
import fcntl
fcntl.fcntl(fd, fcntl.F_ADD_SEALS, fcntl.F_SEAL_SHRINK)
if os.fork() == 0:
    os.execve(fd, ["echo", "fileless-ok"], {})
os.wait()
]])
		assert.are.equal(0, code, err)
		assert.are.equal("fileless-ok\n", out)
		local m, x = events_of(res, "memfd"), events_of(res, "exec")
		assert.are.equal(1, #m, err)
		assert.are.equal("payload", m[1].path)
		assert.are.equal(1, #x, err)
		assert.are.equal("/memfd:payload (deleted)", x[1].path)
		assert.matches("^%x+$", x[1].sha256)
	end)

	it("passes CPython's test_os", function()
		if not S.read("/usr/lib/python3.11/test/test_os.py") then
			return pending("libpython3.11-testsuite is not installed (scripts/deps.sh installs it)")
		end
		local out, err, code = S.runlua("--wall", "600", "--cpu", "600", "/usr/bin/python3", "-m", "test", "test_os")
		assert.are.equal(0, code, out .. err)
		assert.matches("Tests result: SUCCESS", out, nil, true)
	end)
end)

describe("honest outcomes [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	-- runs sbxlua run.lua in dir (the caller's current directory there)
	local function run_in(dir, ...)
		local bin = S.bin:sub(1, 1) == "/" and S.bin or os.getenv("PWD") .. "/" .. S.bin
		return S.sh_err("cd " .. S.q(dir) .. " && " .. bin .. " run.lua " .. S.quoted(...))
	end

	it("runs `python3 sample.py` with sample.py in the caller's directory, bound read-only and said", function()
		local d, rm = S.tmpdir()
		os.execute("chmod 755 " .. S.q(d))
		local f = assert(io.open(d .. "/sample.py", "w"))
		f:write("import os\nprint('sample ran', __file__)\n"
			.. "try:\n    open(__file__, 'a')\nexcept OSError as e:\n    print('read-only', e.errno)\n")
		f:close()
		os.execute("chmod 644 " .. S.q(d .. "/sample.py"))
		local out, err, code = run_in(d, "--explore", "python3", "sample.py")
		rm()
		assert.are.equal(0, code, err)
		-- not writable inside (EROFS, or EACCES for a file of another owner)
		assert.matches("^sample ran /work/sample.py\nread%-only %d+\n$", out)
		assert.matches("sandbox: note: bound from the command line: sample.py at /work/sample.py (read-only)",
			err, nil, true)
		assert.matches("verdict: clean", err, nil, true)
	end)

	it("says unknown, never clean, when the interpreter cannot open its script", function()
		local d, rm = S.tmpdir()
		local out, err, code = run_in(d, "--explore", "python3", "nosuch.py")
		rm()
		assert.are.equal(2, code, err)
		assert.are.equal("", out)
		assert.matches("sandbox: note: not in the box: nosuch.py", err, nil, true)
		assert.matches("verdict: unknown (severity 1)\nfinding: never_ran: never ran: the script nosuch.py "
			.. "is not in the box", err, nil, true)
	end)

	it("says unknown for a program not found, exit 127", function()
		local out, err, code = S.runlua("--explore", "no-such-program-" .. S.unique())
		assert.are.equal(127, code, err)
		assert.are.equal("", out)
		assert.matches("^sbxlua: no%-such%-program%-%d+: not found\nverdict: unknown %(severity 1%)\n"
			.. "finding: never_ran: never ran: no%-such%-program%-%d+: not found\n$", err)
	end)

	it("records a failed PATH candidate as an attempt, not a process or a command", function()
		local out, err, code, res = S.json_run("--explore", "/usr/bin/env", "true")
		assert.are.equal(0, code, err)
		assert.are.equal("", out)
		local results = {}
		for _, e in ipairs(events_of(res, "exec")) do results[#results + 1] = e.path .. " " .. tostring(e.result) end
		assert.are.same({ "/usr/bin/env found", "/usr/local/sbin/true ENOENT", "/usr/local/bin/true ENOENT",
			"/usr/sbin/true ENOENT", "/usr/bin/true found" }, results)
		local b = res.behaviour
		assert.are.same({ "/usr/bin/env", "/usr/bin/true" }, b.processes_created)
		assert.are.same({ "/usr/bin/env true", "true" }, b.command_executions)
	end)
end)

describe("the helpers' arguments", function()
	local stdbox = require "sbx.stdbox"
	local verdict = require "sbx.verdict"
	local profile = require "sbx.profile"

	it("are checked", function()
		assert.has_error(function() stdbox.profile_name(nil) end)
		assert.has_error(function() stdbox.script_operand(1, {}) end)
		assert.has_error(function() stdbox.script_operand("python3", "x") end)
		assert.has_error(function() stdbox.arg_notes(nil) end)
		assert.has_error(function() verdict.refusal_end("x") end)
		assert.has_error(function() profile.compile({ default = "allow", rules = {}, watched = "memfd_create" }) end)
		assert.has_error(function() profile.compile({ default = "allow", rules = {}, watched = { 1 } }) end)
	end)

	it("name the script an interpreter opens, and the profile of a --rw analysis box", function()
		assert.are.equal(1, stdbox.script_operand("python3", { "sample.py" }))
		assert.are.equal(3, stdbox.script_operand("/usr/bin/python3.11", { "-W", "error", "s.py", "x" }))
		assert.is_nil(stdbox.script_operand("python3", { "-c", "print(1)" }))
		assert.is_nil(stdbox.script_operand("python3", { "-m", "http.server" }))
		assert.are.equal(2, stdbox.script_operand("bash", { "-x", "run.sh" }))
		assert.is_nil(stdbox.script_operand("sh", { "-c", "true" }))
		assert.is_nil(stdbox.script_operand("cat", { "notes.txt" }))
		assert.are.equal("watch-rw", stdbox.profile_name({ profile = "watch", rw = { { src = "/x", dst = "/x" } } }))
		assert.are.equal("watch", stdbox.profile_name({ profile = "watch" }))
		assert.are.equal("default", stdbox.profile_name({}))
		-- the note: the last refusal, no exec or connect after it
		local r = { outcome = "exit", elapsed = 0.5, events = {
			{ kind = "ptrace", syscall = "ptrace", answer = "deny", time_ms = 100 } } }
		local n = verdict.refusal_end(r)
		assert.are.equal("note: the program ended 400 ms after a refused ptrace", n.text)
		r.events[2] = { kind = "exec", answer = "allow", time_ms = 120 }
		assert.is_nil(verdict.refusal_end(r))
	end)
end)
