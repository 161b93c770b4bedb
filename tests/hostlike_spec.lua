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
	local argv = { "--ro", TRACER .. ":/work/tracer" }
	for _, a in ipairs(opts) do argv[#argv + 1] = a end
	argv[#argv + 1] = "/work/tracer"
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

	it("says the program ended soon after a refusal it met in the jail", function()
		local _, err, code = tracer({ "--profile", "watch", "--mode", "deny" }, "antidebug", "/tmp/app.log")
		assert.are.equal(3, code, err)
		assert.matches("sandbox: note: the program ended %d+ ms after a refused ptrace", err)
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
		assert.are.equal("tmp/su 600\nwork/sg 600\n", host_modes(keep))
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
