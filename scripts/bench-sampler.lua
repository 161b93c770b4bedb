-- SPDX-License-Identifier: MIT
-- The sampler's own cost and its memory overshoot, measured:
--   ./sbxlua scripts/bench-sampler.lua [seconds] [--cost-only]
-- 1. supervisor CPU per second of a run (os.clock: this process only, not
--    the box) as a percentage of one core, next to the 2 % target, for a
--    quiet box, a busy box and 100 idle processes holding half the memory
--    limit; with the box's cgroup (where this caller gets one) and without.
--    "sampling" is the run with sampling less the same run without it
--    (memory_limit, task_limit and cpu_limit removed from the spec);
-- 2. the CPU a box of 1, 8 and 100 spinning processes had used when the
--    sampler stopped it at a 1 s budget (measured.cpu / budget);
-- 3. the peak memory the sampler saw for a fast hog (1 MiB per malloc,
--    touched) against its limit: peak / limit.
local sbx = require "sbx"
local stdbox = require "sbx.stdbox"

local secs, cost_only = 5, false
for _, a in ipairs(arg) do
	if a == "--cost-only" then cost_only = true else secs = assert(tonumber(a), "seconds") end
end

local hog = sbx.realpath("build/tests/hog_mem")
local memgrow = sbx.realpath("build/tests/memgrow")
local burn = sbx.realpath("build/tests/cpu_burn")
if not hog or not memgrow or not burn then
	print("build/tests/hog_mem, memgrow or cpu_burn missing: run make")
	os.exit(1)
end

local function spec(o, sample, cgroup)
	o.cgroup = cgroup
	local s = assert(stdbox.build(o))
	s.stdout, s.stderr = "discard", "discard"
	if not sample then s.memory_limit, s.task_limit, s.cpu_limit = nil, nil, nil end
	return s
end

local TARGET = 2.0
local function cost(name, o, cgroup)
	local c, e, n, got = {}, {}, 0, false
	for _, sample in ipairs { false, true } do
		local lim = {}
		for k, v in pairs(o.limits or {}) do lim[k] = v end
		lim.wall = secs
		local s = spec({ prog = o.prog, args = o.args, ro = o.ro, limits = lim }, sample, cgroup)
		local c0 = os.clock()
		local r = assert(sbx.run(s))
		c[sample] = os.clock() - c0
		e[sample] = r.elapsed
		if sample then n, got = r.samples or 0, r.cgroup end
		assert(r.outcome == "wall", name .. ": " .. r.outcome)
	end
	if cgroup and not got then return false end
	local pct = 100 * c[true] / e[true]
	local sampling = 100 * (c[true] / e[true] - c[false] / e[false])
	print(("%-34s %-9s %6.3f%% of a core (sampling %6.3f%%, %4d samples, %7.1f us each)  target %.0f%%  %s")
		:format(name, got and "cgroup" or "no cgroup", pct, sampling, n,
			n > 0 and sampling / 100 * e[true] / n * 1e6 or 0, TARGET,
			pct <= TARGET and "ok" or "OVER"))
	return true
end

local hundred = "for i in $(seq 100); do /work/hog_mem 2 anon 600 & done; wait"
local cases = {
	{ "quiet (sleep)", { prog = "/bin/sleep", args = { "600" } } },
	{ "busy (a spinning shell)", { prog = "/bin/sh", args = { "-c", "while :; do :; done" } } },
	{ "100 idle, 200 of 384 MiB", { prog = "/bin/sh", args = { "-c", hundred },
		ro = { { src = hog, dst = "/work/hog_mem" } }, limits = { memory = "384M", tasks = 256 } } },
}
print(("supervisor CPU per second of a %g s run, as a percentage of one core"):format(secs))
for _, cg in ipairs { true, false } do
	for _, c in ipairs(cases) do
		if cost(c[1], c[2], cg) == false then
			print("(no cgroup for this caller: the boxes run without one)")
			break
		end
	end
end
if cost_only then return end

print("\nCPU used when the sampler stopped a box at a 1 s budget (build/tests/cpu_burn spin N)")
for _, cg in ipairs { true, false } do
	for _, n in ipairs { 1, 8, 100 } do
		local worst, sum, runs, got, rlimit = 0, 0, 5, false, 0
		for _ = 1, runs do
			local r = assert(sbx.run(spec({ prog = burn, args = { "spin", tostring(n) },
				limits = { cpu = 1, wall = 60 } }, true, cg)))
			-- one spinner meets its own RLIMIT_CPU (1 s, SIGXCPU) at the
			-- moment the sampler would stop the box: either acts first
			if r.outcome ~= "cpu" then
				assert(n == 1 and r.outcome == "exit",
					"spinners not stopped by the cpu limit: " .. r.outcome)
				rlimit = rlimit + 1
			end
			worst, sum, got = math.max(worst, r.cpu), sum + r.cpu, r.cgroup
		end
		if cg and not got then break end
		print(("%3d processes, %-9s: cpu / budget = %.3f mean, %.3f worst over %d runs%s"):format(
			n, got and "cgroup" or "no cgroup", sum / runs, worst, runs,
			rlimit > 0 and (" (%d ended by the spinner's own RLIMIT_CPU)"):format(rlimit) or ""))
	end
end

print("\nmemory overshoot of a fast hog (build/tests/memgrow, 1 MiB steps)")
for _, mib in ipairs { 64, 256 } do
	local worst, sum, n = 0, 0, 10
	for _ = 1, n do
		local r = assert(sbx.run(spec({ prog = memgrow, args = { "100000" },
			limits = { memory = mib << 20, wall = 20 } }, true)))
		local ratio = (r.memory_peak or 0) / (mib << 20)
		worst = math.max(worst, ratio)
		sum = sum + ratio
		assert(r.outcome == "memory", "hog not stopped by the memory limit: " .. r.outcome)
	end
	print(("limit %4d MiB: peak seen / limit = %.3f mean, %.3f worst over %d runs"):format(mib, sum / n, worst, n))
end
