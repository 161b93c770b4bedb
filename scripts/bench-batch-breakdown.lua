-- SPDX-License-Identifier: MIT
-- Where a batch's per-program CPU goes in sbxlua (not in the box): N runs
-- of distinct copies of /bin/true through sbx.batch's loop at -j 1, in the
-- analysis box and in the jail (--jail), with os.clock (this process's
-- CPU) taken around each step; prints each step's mean per program, ms.
--   ./sbxlua scripts/bench-batch-breakdown.lua [N]     (default 100)
local batch = require "sbx.batch"
local pipeline = require "sbx.pipeline"
local verdict = require "sbx.verdict"
local behaviour = require "sbx.behaviour"
local json = require "sbx.json"
local sbx = require "sbx"
local core = require "sbx.core"

local n = tonumber(arg[1]) or 100
local clock = os.clock
local spent = {}

-- wraps t[name] so that its CPU is added to spent[label]
local function timed(t, name, label)
	local f = t[name]
	t[name] = function(...)
		local t0 = clock()
		local a, b, c, d = f(...)
		spent[label] = (spent[label] or 0) + clock() - t0
		return a, b, c, d
	end
end
timed(pipeline, "build", "build the box (sbx.pipeline.build)")
timed(pipeline, "collect", "collect the run (sbx.pipeline.collect)")
timed(pipeline, "result", "the result, behaviour (sbx.pipeline.result)")
timed(verdict, "judge", "judge (sbx.verdict.judge)")
timed(behaviour, "judged", "behaviour.judged")
timed(json, "encode", "the line (sbx.json.encode)")
-- the pool's start and wait: the core's set-up of a box, and the
-- supervisor's loop until one ends
local pool = sbx.pool
sbx.pool = function()
	local p = pool()
	local mt = getmetatable(p)
	local wrapped = setmetatable({}, { __index = p, __close = function() mt.__close(p) end })
	for _, m in ipairs { "start", "wait" } do
		wrapped[m] = function(_, ...)
			local t0 = clock()
			local a, b, c = p[m](p, ...)
			spent["pool:" .. m] = (spent["pool:" .. m] or 0) + clock() - t0
			return a, b, c
		end
	end
	wrapped.running = function() return p:running() end
	wrapped.close = function() return p:close() end
	return wrapped
end

local dir = os.tmpname()
os.remove(dir)
assert(core.mkdir(dir, 493))
local items = {}
local bin = assert(io.open("/bin/true", "rb")):read("a")
for i = 1, n do
	local p = ("%s/t%04d"):format(dir, i)
	local f = assert(io.open(p, "wb"))
	f:write(bin, tostring(i))
	f:close()
	os.execute("chmod 755 " .. p)
	items[#items + 1] = p
end

for _, jail in ipairs { false, true } do
	local base, rules, options = assert(batch.setup { jail = jail })
	local todo = batch.todo(items, options, {})
	spent = {}
	local c0, w0 = clock(), batch.uptime()
	batch.run(todo, base, rules, 1, function(rec) json.encode(rec) end)
	local total, wall = clock() - c0, batch.uptime() - w0
	print(("%s: %d programs, %.1f ms CPU of sbxlua per program (%.1f/s wall)"):format(
		jail and "--jail" or "analysis box", n, total / n * 1e3, n / wall))
	local names = {}
	for k in pairs(spent) do names[#names + 1] = k end
	table.sort(names, function(a, b) return spent[a] > spent[b] end)
	for _, k in ipairs(names) do print(("    %-46s %6.2f ms"):format(k, spent[k] / n * 1e3)) end
end
os.execute("rm -rf " .. dir)
