-- SPDX-License-Identifier: MIT
-- The Lua of one program's record in a batch, each step alone: one run of
-- PROGRAM (default /bin/true) through sbx.batch's loop, then its judging
-- (the rule library, sbx.verdict.judge), its line (sbx.json.encode), the
-- box's build (sbx.pipeline.build) and the program's five hashes
-- (core.hashes), each repeated; prints the best of five rounds, in us, and
-- the Lua instructions of one judging.  Run it in two trees to compare.
--   ./sbxlua scripts/bench-record.lua [--jail] [PROGRAM]
local batch = require "sbx.batch"
local json = require "sbx.json"
local pipeline = require "sbx.pipeline"
local verdict = require "sbx.verdict"

local jail = arg[1] == "--jail"
local prog = arg[jail and 2 or 1] or "/bin/true"
local base, rules, options = assert(batch.setup { jail = jail })
local rec
batch.run(batch.todo({ prog }, options, {}), base, rules, 1, function(r) rec = r end)
assert(rec and rec.run, "no record")

-- the best of five rounds of n calls of f, us a call
local function best(n, f)
	local b = math.huge
	for _ = 1, 5 do
		local t0 = os.clock()
		for _ = 1, n do f() end
		b = math.min(b, (os.clock() - t0) / n)
	end
	return b * 1e6
end

local o = {}
for k, v in pairs(base) do o[k] = v end
o.prog, o.args = prog, {}

-- the judge sets a count hook of its own: counted with debug.sethook
-- kept from replacing this one
local count, sethook = 0, debug.sethook
debug.sethook = function() end -- luacheck: ignore 122
sethook(function() count = count + 1 end, "", 1)
verdict.judge(rec.run, rules.list, rules.opts)
sethook()
debug.sethook = sethook -- luacheck: ignore 122

print(("%s, %s:"):format(prog, jail and "--jail" or "the analysis box"))
print(("  judge (%d rules)      %8.1f us  (%d Lua instructions)"):format(#rules.list,
	best(200, function() verdict.judge(rec.run, rules.list, rules.opts) end), count))
print(("  the line (%5d bytes) %8.1f us"):format(#json.encode(rec),
	best(200, function() json.encode(rec) end)))
print(("  the box's build        %8.1f us"):format(best(50, function() pipeline.build(pipeline.freeze(o)) end)))
print(("  the five hashes        %8.1f us"):format(best(50, function() batch.hash_file(prog) end)))
