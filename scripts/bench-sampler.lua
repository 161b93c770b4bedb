-- The sampler's own cost and its memory overshoot, measured:
--   ./sbxlua scripts/bench-sampler.lua
-- 1. supervisor CPU per second of a run (os.clock: this process only, not
--    the box), with and without sampling, for an idle and a busy program
--    and a box of 10 processes;
-- 2. the peak memory the sampler saw for a fast hog (1 MiB per malloc,
--    touched) against its limit: peak / limit.
local sbx = require "sbx"
local stdbox = require "sbx.box"

local function spec(prog, args, lim, sample)
	local s = assert(stdbox.build { prog = prog, args = args, limits = lim })
	s.stdout, s.stderr = "discard", "discard"
	if not sample then s.memory_limit, s.task_limit = nil, nil end
	return s
end

local function cost(name, prog, args, secs)
	for _, sample in ipairs { false, true } do
		local s = spec(prog, args, { wall = secs }, sample)
		local c0 = os.clock()
		local r = assert(sbx.run(s))
		local c = os.clock() - c0
		print(("%-28s sampling %-3s  supervisor CPU %6.2f ms over %.2f s = %5.3f%% of a core  (%s samples)")
			:format(name, sample and "on" or "off", c * 1e3, r.elapsed, 100 * c / r.elapsed,
				tostring(r.samples or 0)))
	end
end

print("sampler cost (50 ms below 1/4 of the memory and 1/2 of the task limit, 10 ms above, 1 ms past half the memory)")
cost("idle (sleep)", "/bin/sleep", { "60" }, 3)
cost("busy (spinning shell)", "/bin/sh", { "-c", "while :; do :; done" }, 3)
cost("10 processes", "/bin/sh", { "-c", "for i in 1 2 3 4 5 6 7 8 9; do sleep 60 & done; sleep 60" }, 3)

print("\nmemory overshoot of a fast hog (build/tests/memgrow, 1 MiB steps)")
local prog = sbx.realpath("build/tests/memgrow")
if not prog then
	print("build/tests/memgrow missing: run make")
	os.exit(1)
end
for _, mib in ipairs { 64, 256 } do
	local worst, sum, n = 0, 0, 10
	for _ = 1, n do
		local r = assert(sbx.run(spec(prog, { "100000" }, { memory = mib << 20, wall = 20 }, true)))
		local ratio = (r.memory_peak or 0) / (mib << 20)
		worst = math.max(worst, ratio)
		sum = sum + ratio
		assert(r.outcome == "memory", "hog not stopped by the memory limit: " .. r.outcome)
	end
	print(("limit %4d MiB: peak seen / limit = %.3f mean, %.3f worst over %d runs"):format(mib, sum / n, worst, n))
end
