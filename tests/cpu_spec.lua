-- SPDX-License-Identifier: MIT
-- The CPU limit of the whole box: the sampler sums the CPU time of every
-- process of the box (the cgroup's cpu.stat where the box has a cgroup,
-- else /proc of each process) and stops the box at the budget, fractions
-- of a second included; RLIMIT_CPU is only a per-process backstop.  Each
-- test checks the report line and exit code, the result's measured CPU
-- against the budget, and from the host that no process of the box is
-- left.  Run as root and as uid 65534.
local sbx = require "sbx"
local S = require "support"

local T = "build/tests/"

local json_run = S.json_run

local host_procs = S.host_procs

local function tag() return "cpuburn" .. S.unique() end

describe("cpu limit [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	-- the cgroup's cpu.stat where this caller gets a cgroup (root here),
	-- and the sum over /proc in every case
	for _, cg in ipairs { "auto", "none" } do
		local opt = cg == "none" and { "--cgroup", "none" } or {}
		it("stops eight spinning workers at the budget of the whole box (cgroup " .. cg .. ")", function()
			local t = tag()
			local args = { "--cpu", "1", "--wall", "120" }
			for _, a in ipairs(opt) do args[#args + 1] = a end
			for _, a in ipairs { T .. "cpu_burn", "spin", "8", t } do args[#args + 1] = a end
			local _, err, code, res = json_run(table.unpack(args))
			assert.are.equal("sandbox: killed: cpu limit (1 s)\n", err)
			assert.are.equal(124, code)
			assert.are.equal("cpu", res.outcome)
			assert.is_true(res.measured.cpu >= 1, "cpu " .. res.measured.cpu)
			print(("\n[%s] 8 workers, --cpu 1, cgroup %s: measured %.3f s"):format(S.priv, cg,
				res.measured.cpu))
			assert.are.equal("0", host_procs(t))
		end)
	end

	it("counts children that no one waits for (SIGCHLD ignored)", function()
		-- each child's time leaves no trace in any cutime once the kernel
		-- reaps it: init's rusage alone would say almost nothing here, and
		-- no process ever reaches RLIMIT_CPU
		local t = tag()
		local _, err, code, res = json_run("--cgroup", "none", "--cpu", "1", "--wall", "120",
			T .. "cpu_burn", "autoreap", "250", t)
		assert.are.equal("sandbox: killed: cpu limit (1 s)\n", err)
		assert.are.equal(124, code)
		assert.is_true(res.measured.cpu >= 1, "cpu " .. res.measured.cpu)
		assert.are.equal("0", host_procs(t))
	end)

	it("honours a fractional budget and says so", function()
		local t = tag()
		local _, err, code, res = json_run("--verbose", "--cpu", "0.3", "/bin/sh", "-c",
			"while :; do :; done # " .. t)
		assert.matches("\nsandbox: limit: cpu 0%.3 s %(sampled, box%-wide; rlimit per process%)\n", err)
		assert.are.equal("sandbox: killed: cpu limit (0.3 s)\n", err:match("([^\n]*\n)$"))
		assert.are.equal(124, code)
		-- stopped by the sampler, not by RLIMIT_CPU (1 s, SIGXCPU)
		assert.are.equal("cpu", res.outcome)
		assert.are.equal(0.3, res.limits.cpu.value)
		assert.are.equal("sampled", res.limits.cpu.enforcement)
		assert.is_true(res.measured.cpu >= 0.3, "cpu " .. res.measured.cpu)
		assert.are.equal("0", host_procs(t))
	end)

	it("measures little for a quiet box", function()
		local _, err, code, res = json_run("--cpu", "1", "/bin/sleep", "0.5")
		assert.are.equal("sandbox: exit 0\n", err)
		assert.are.equal(0, code)
		assert.are.equal("exit", res.outcome)
		assert.is_true(res.measured.cpu < 0.25, "cpu " .. res.measured.cpu)
	end)

	it("samples a box with a CPU budget and no other limit (core)", function()
		local r = S.run("while :; do :; done", { cpu_limit = 0.2, cgroup = false })
		assert.are.equal("cpu", r.outcome)
		assert.is_true(r.cpu >= 0.2, "cpu " .. r.cpu)
		assert.is_true(r.samples > 0)
	end)

	it("refuses a bad cpu_limit", function()
		for _, v in ipairs { 0, -1, "1", 1e8, 0 / 0 } do
			local ok, err = pcall(sbx.run, S.spec("true", { cpu_limit = v }))
			assert.is_false(ok, tostring(v))
			assert.matches("field 'cpu_limit' must be a number of seconds above 0", err)
		end
	end)
end)
