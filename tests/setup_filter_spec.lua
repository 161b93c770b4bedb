-- SPDX-License-Identifier: MIT
-- The filter governs the program, not sbxlua: a custom profile that
-- refuses, traps or kills any call sbxlua's own set-up makes (sendto,
-- sendmsg, readlink, openat, read, close, write, prctl, ...) lets the
-- command run, and the isolation report stays verified from the kernel's
-- view of the command's own process.
-- scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"
local sbx = require "sbx"
local stdbox = require "sbx.stdbox"
local profile = require "sbx.profile"

local BARE = "./build/tests/bare_true" -- one system call, exit_group(0)

-- the calls the set-up makes, or made, between the filter and execve
local SETUP_CALLS = { "sendto", "sendmsg", "recvfrom", "recvmsg", "readlink", "readlinkat",
	"open", "openat", "read", "close", "write", "prctl", "pipe2", "pidfd_open",
	"getpid", "fcntl", "dup3", "newfstatat", "rt_sigaction", "rt_sigprocmask",
	"seccomp", "exit" }
-- of them, those /bin/true (its dynamic loader and libc) never makes
local TRUE_FREE = { "sendto", "sendmsg", "recvfrom", "recvmsg", "readlink", "readlinkat",
	"write", "prctl", "pipe2", "pidfd_open", "getpid", "fcntl", "dup3", "seccomp" }

local ACTIONS = {
	trap = '"trap"', kill = '"kill"', errno = '{ errno = "EPERM" }',
}

-- the verified isolation lines of the standard box under profile name
local function verified(name)
	return {
		"sandbox: namespaces: user mount pid ipc net uts cgroup (verified)\n",
		"sandbox: root: private tmpfs (verified), read-only (verified)\n",
		"sandbox: no_new_privs: yes (verified)\n",
		"sandbox: capabilities: none (verified)\n",
		"sandbox: seccomp: profile " .. name .. " (verified)\n",
	}
end

describe("a profile against sbxlua's own set-up [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	local dir, cleanup
	setup(function() dir, cleanup = S.tmpdir() end)
	teardown(function() cleanup() end)

	-- writes a profile refusing call with action; returns its path
	local function write_profile(call, action)
		local path = ("%s/%s-%s.lua"):format(dir, call, action)
		local f = assert(io.open(path, "w"))
		f:write(('return { default = "allow", rules = { { call = %q, action = %s } } }\n')
			:format(call, ACTIONS[action]))
		f:close()
		return path
	end

	local function check_run(prog, call, action)
		local path = write_profile(call, action)
		local out, err, code = S.runlua("--verbose", "--profile", path, prog)
		assert.equal("", out)
		for _, l in ipairs(verified(path)) do
			assert.is_truthy(err:find(l, 1, true), call .. " " .. action .. ": " .. err)
		end
		assert.is_falsy(err:find("(failed)", 1, true), err)
		assert.equal("sandbox: exit 0\n", err:match("[^\n]*\n$"), err)
		assert.equal(0, code, err)
	end

	for _, call in ipairs(SETUP_CALLS) do
		for _, action in ipairs { "trap", "errno" } do
			it(call .. " (" .. action .. "): a program that needs none of them exits 0, verified",
				function() check_run(BARE, call, action) end)
		end
	end
	for _, call in ipairs { "sendto", "sendmsg", "readlink", "openat", "read", "write", "prctl" } do
		it(call .. " (kill): a program that needs none of them exits 0, verified",
			function() check_run(BARE, call, "kill") end)
	end

	for _, call in ipairs(TRUE_FREE) do
		it(call .. " (trap): /bin/true exits 0, verified", function()
			check_run("/bin/true", call, "trap")
		end)
	end

	it("an execve that fails under the filter is still reported with its errno", function()
		local script = dir .. "/badinterp"
		S.write(script, "#!/nonexistent/interpreter\n")
		os.execute("chmod 0755 " .. S.q(script))
		local path = write_profile("sendmsg", "trap")
		local out, err, code = S.runlua("--profile", path, script)
		assert.equal("", out)
		assert.equal(126, code, err)
		assert.matches("^sandbox: cannot exec[^\n]*: ENOENT\n$", err)
		-- a profile that refuses the one write loses only the errno
		out, err, code = S.runlua("--profile", write_profile("write", "errno"), script)
		assert.equal("", out)
		-- (that write refused is named: run.lua names a profile's refusals)
		assert.equal("sandbox: denied: syscall 1 (write) (EPERM)\nsandbox: exit 126\n", err)
		assert.equal(126, code)
		out, err, code = S.runlua("--profile", write_profile("write", "trap"), script)
		assert.equal("", out)
		assert.equal("sandbox: killed: signal 31 (SIGSYS)\n", err)
		assert.equal(159, code)
	end)
end)

describe("the probe is the program's own process [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	local function run_probe(prog, args)
		local spec = assert(stdbox.build { prog = prog, args = args,
			filter = assert(profile.compile(assert(profile.load("default")))) })
		spec.stdout, spec.stderr = "capture", "capture"
		local r = assert(sbx.run(spec))
		assert.equal("exit", r.outcome, r.stderr)
		return r
	end

	it("its status is read after the execve, with the filter in force", function()
		-- the command's name in the status is the program's, not sbxlua's:
		-- read after the execve, even of a program that ends at once
		for _ = 1, 5 do
			local r = run_probe(BARE)
			local st = r.probe.status
			assert.matches("^Name:%s+bare_true\n", st)
			assert.matches("\nSeccomp:%s+2\n", st)
			assert.matches("\nNoNewPrivs:%s+1\n", st)
			assert.matches("\nCapEff:%s+0000000000000000\n", st)
			-- the box's own ids, as the box sees them
			assert.matches(("\nUid:%%s+%d%%s+%d%%s+%d%%s+%d\n"):format(1000, 1000, 1000, 1000), st)
			assert.matches(("\nGid:%%s+%d%%s+%d"):format(1000, 1000), st)
			assert.matches("^%d+ %d+ ", r.probe.mountinfo)
			assert.matches("user:%[%d+%]", r.probe.ns)
		end
	end)

	it("of a program still running when it is read", function()
		local r = run_probe("/bin/sh", { "-c", "read -r x </proc/self/status; exit 0" })
		assert.matches("^Name:%s+d?a?sh\n", r.probe.status) -- /bin/sh is dash on Debian
		assert.matches("\nSeccomp:%s+2\n", r.probe.status)
	end)
end)
