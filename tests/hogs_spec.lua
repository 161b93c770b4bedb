-- SPDX-License-Identifier: MIT
-- Limits that hold, against real hogs in the standard box: each test checks
-- the report line, the exit code 124 where a limit stopped the program, and
-- the host's side.  The path that enforced each limit here is printed.
-- Run as root and as uid 65534 by scripts/test.sh.
local sbx = require "sbx"
local stdbox = require "sbx.stdbox"
local S = require "support"

local T = "build/tests/"

local json_run = S.json_run

local host_procs = S.host_procs

-- the report's lines of a run's stderr (the program's own go before it)
local function report_lines(s)
	local t = {}
	for l in s:gmatch("[^\n]*\n") do
		if l:find("^sandbox: ") then t[#t + 1] = l end
	end
	return table.concat(t)
end

describe("limits [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	it("names how each limit is enforced on this host", function()
		local _, err, code, res = json_run("--verbose", "/bin/true")
		assert.are.equal(0, code)
		local how = {}
		for k, v in pairs(res.limits) do how[#how + 1] = k .. "=" .. v.enforcement end
		table.sort(how)
		print("\n[" .. S.priv .. "] enforcement here: " .. table.concat(how, " "))
		assert.are.equal("supervisor", res.limits.wall.enforcement)
		assert.are.equal("sampled", res.limits.cpu.enforcement)
		-- as the base found here allows: a cgroup where its controllers are
		local cg = sbx.cgroup_probe()
		local ctl = cg and cg.usable and cg.controllers or {}
		assert.are.equal(ctl.memory and "cgroup" or "sampled", res.limits.memory.enforcement)
		assert.are.equal(ctl.pids and "cgroup" or "sampled", res.limits.tasks.enforcement)
		assert.matches("sandbox: limit: memory 512 MiB %((%a+)[%a; ]*%)\n", err)
	end)

	it("refuses a cgroup base that does not work, and runs without one on request", function()
		local out, err, code = S.runlua("--cgroup", "/nonexistent/base", "/bin/true")
		assert.are.equal(126, code)
		assert.are.equal("", out)
		assert.matches("^sbxlua: %-%-cgroup /nonexistent/base: [^\n]+\n$", err)
		local _, err2, code2, res = json_run("--cgroup", "none", "--verbose", "/bin/true")
		assert.are.equal(0, code2)
		assert.is_false(res.measured.cgroup)
		assert.matches("limit: memory 512 MiB %(sampled; pipe buffers and kernel objects not counted%)\n", err2)
	end)

	it("stops a fork bomb at the task limit; the host's processes return", function()
		-- the bomb's processes never exit, so the box holds its tasks until
		-- it is stopped: the sampler sees them however slowly the machine
		-- runs (the classic bomb below is the racy case)
		local tag = "bomb" .. S.unique()
		local _, err, code, res = json_run("--pids", "40", "--wall", "60", T .. "forkbomb", tag)
		assert.are.equal("sandbox: killed: process limit (40)\n", err)
		assert.are.equal(124, code)
		assert.is_true(res.measured.tasks_peak >= 40)
		assert.are.equal("0", host_procs(tag))
	end)

	it("ends a classic fork bomb at a limit; none of it survives", function()
		-- `f | f &` returns at once: its processes live for moments, so how
		-- many run at one instant depends on the machine's speed.  What the
		-- limits promise: the box ends at a limit (the task limit when the
		-- sampler sees the peak, else the wall clock) and nothing survives.
		local tag = "bomb" .. S.unique()
		local _, err, code = json_run("--pids", "40", "--wall", "3", "/bin/sh", "-c",
			"f() { f | f & }; f; sleep 30 # " .. tag)
		-- at the wall clock, the peak may have reached the limit: then the
		-- report says so, on evidence (the proc connector's count)
		local r = report_lines(err)
		local ok = r == "sandbox: killed: process limit (40)\n"
			or r == "sandbox: killed: wall clock (3 s)\n"
			or r == "sandbox: killed: wall clock (3 s)\nsandbox: note: process limit (40 tasks) reached\n"
		assert.is_true(ok, err)
		assert.are.equal(124, code)
		assert.are.equal("0", host_procs(tag))
	end)

	it("stops a thread bomb at the task limit", function()
		local _, err, code = S.runlua("--pids", "32", T .. "threadbomb")
		assert.are.equal(124, code)
		assert.are.equal("sandbox: killed: process limit (32)\n", err)
	end)

	it("stops a memory hog before twice its limit", function()
		local _, err, code, res = json_run("--mem", "64M", T .. "memgrow", "1000")
		assert.are.equal("sandbox: killed: memory limit (64 MiB)\n", err)
		assert.are.equal(124, code)
		local peak = res.measured.memory_peak
		print(("\n[%s] memory hog: peak seen %.1f MiB for a 64 MiB limit (%.2fx)"):format(
			S.priv, peak / 2 ^ 20, peak / (64 * 2 ^ 20)))
		assert.is_true(peak < 128 * 2 ^ 20, "peak " .. peak)
	end)

	it("does not charge the supervisor's own memory to the box", function()
		-- init is a copy of this process: 300 MiB here must not count in a
		-- box whose program uses almost nothing, under a 256 MiB limit
		local big = ("x"):rep(300 << 20)
		local spec = assert(stdbox.build { prog = "/bin/sleep", args = { "0.3" },
			limits = { memory = 256 << 20 } })
		spec.stdout, spec.stderr = "capture", "capture"
		local r = assert(sbx.run(spec))
		-- the premise: this process held the 300 MiB through the run
		local rss = tonumber(S.read("/proc/self/status"):match("\nVmRSS:%s*(%d+) kB")) * 1024
		assert.is_true(rss >= #big, "supervisor rss " .. rss)
		assert.are.equal("exit", r.outcome)
		assert.is_true(r.memory_peak < 64 << 20, "peak " .. tostring(r.memory_peak))
	end)

	it("stops eight processes that together pass the limit", function()
		-- each holds 24 MiB, far under RLIMIT_DATA; together 192 MiB > 100 MiB
		local _, err, code, res = json_run("--mem", "100M", "--ro", T .. "hog_mem:/work/hog_mem",
			"/bin/sh", "-c", "for i in 1 2 3 4 5 6 7 8; do /work/hog_mem 24 anon 20 & done; wait")
		assert.are.equal("sandbox: killed: memory limit (100 MiB)\n", err)
		assert.are.equal(124, code)
		assert.is_true(res.measured.memory_peak > 100 * 2 ^ 20)
	end)

	it("stops a CPU spinner at its budget", function()
		local _, err, code = S.runlua("--cpu", "1", "/bin/sh", "-c", "exec /bin/sh -c 'while :; do :; done'")
		assert.are.equal("sandbox: killed: cpu limit (1 s)\n", err)
		assert.are.equal(124, code)
	end)

	it("stops a sleeper at the wall clock with every descendant gone", function()
		local tag = "sleeper" .. S.unique()
		local t0 = os.time()
		local _, err, code = S.runlua("--wall", "1", "/bin/sh", "-c",
			"(setsid sh -c 'sleep 600 # " .. tag .. "' &); sleep 600 # " .. tag)
		assert.are.equal("sandbox: killed: wall clock (1 s)\n", err)
		assert.are.equal(124, code)
		-- not a speed: sbxlua did not wait for the 600 s sleepers
		assert.is_true(os.time() - t0 < 300)
		assert.are.equal("0", host_procs(tag))
	end)

	it("stops an output flood at the cap", function()
		local out, err, code = S.runlua("--output-limit", "64K", "/bin/sh", "-c", "yes flood")
		assert.are.equal("sandbox: killed: output limit (64 KiB)\n", err)
		assert.are.equal(124, code)
		assert.are.equal(64 * 1024, #out)
	end)

	it("kills a write past the file size limit with SIGXFSZ", function()
		-- named on the kernel's record: dd's RLIMIT_FSIZE, and /tmp/big
		-- left at exactly that size (tests/evidence_spec.lua)
		local _, err, code = S.runlua("--fsize", "1M", "dd", "if=/dev/zero", "of=/tmp/big", "bs=64k",
			"count=64", "status=none")
		assert.are.equal("sandbox: killed: file size limit (1 MiB)\n", err)
		assert.are.equal(124, code)
	end)

	it("refuses descriptors past the open files limit with EMFILE", function()
		local out, err, code = S.runlua("--nofile", "16", "python3", "-c",
			"import errno\nfs = []\ntry:\n  while True: fs.append(open('/dev/null'))\n"
			.. "except OSError as e:\n  print(errno.errorcode[e.errno], len(fs))")
		assert.are.equal(0, code)
		assert.are.equal("sandbox: exit 0\n", err)
		assert.matches("^EMFILE 1[0-6]\n$", out)
	end)

	it("fills /tmp to ENOSPC and leaves the host's disk alone", function()
		local tag = "fill" .. S.unique()
		local out, err, code = S.runlua("--tmp-size", "1M", "/bin/sh", "-c",
			"dd if=/dev/zero of=/tmp/" .. tag .. " bs=64k count=64 2>&1; echo rc=$?")
		assert.are.equal(0, code, err)
		assert.matches("No space left on device", out)
		assert.matches("rc=1\n$", out)
		assert.is_nil(S.read("/tmp/" .. tag))
	end)

	it("keeps sixteen concurrent boxes' limits and results apart", function()
		local specs = {}
		for i = 1, 16 do
			local o
			if i % 2 == 0 then
				o = { prog = "/bin/sh", args = { "-c", "echo " .. i .. "; exit " .. i }, limits = { wall = 30 } }
			else
				o = { prog = "/bin/sleep", args = { "30" }, limits = { wall = 0.5 + i / 10 } }
			end
			local spec = assert(stdbox.build(o))
			spec.stdout, spec.stderr = "capture", "capture"
			specs[i] = spec
		end
		local rs = assert(sbx.run_many(specs))
		for i = 1, 16 do
			if i % 2 == 0 then
				assert.are.equal("exit", rs[i].outcome, i)
				assert.are.equal(i, rs[i].code)
				assert.are.equal(i .. "\n", rs[i].stdout)
			else
				assert.are.equal("wall", rs[i].outcome, i)
				-- not stopped before its own wall clock, and stopped by
				-- it (not a speed: how late a loaded machine stops it is
				-- not this test's)
				assert.is_true(rs[i].elapsed >= 0.5 + i / 10 - 0.05 and rs[i].elapsed < 30,
					i .. ": " .. rs[i].elapsed)
			end
		end
	end)
end)
