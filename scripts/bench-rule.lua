-- SPDX-License-Identifier: MIT
-- bench-rule.lua: the cost of a Lua rule per notified call: ns per
-- openat+close pair in a box whose profile notifies openat (log mode),
-- without a rule and with one that returns nil; median of five runs each.
--   sbxlua scripts/bench-rule.lua [pairs]
local sbx = require "sbx"
local stdbox = require "sbx.stdbox"

local n = tostring(tonumber(arg[1] or "") or 20000)

local function once(rule)
	local spec, info = stdbox.build { prog = "build/tests/openloop", args = { n },
		profile = "tests/profiles/notify-open.lua", rule = rule }
	assert(spec, info)
	spec.stdout = "capture"
	local r = assert(sbx.run(spec))
	assert(r.outcome == "exit" and r.code == 0, r.outcome)
	return tonumber(r.stdout)
end

local function median(rule)
	local t = {}
	for i = 1, 5 do t[i] = once(rule) end
	table.sort(t)
	return t[3]
end

local calls = 0
local plain = median(nil)
local ruled = median(function() calls = calls + 1 return nil end)
print("openat+close, ns per pair, openat notified (median of 5):")
print(("  no rule            %8d"):format(plain))
print(("  a rule (nil)       %8d  (+%d per call; %d calls)"):format(ruled, ruled - plain, calls))
