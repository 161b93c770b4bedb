-- SPDX-License-Identifier: MIT
-- How much of a Sigma rule set sbxlua reads, and how much of it fires on
-- a batch of samples:
--   ./sbxlua scripts/sigma-coverage.lua RULES [BATCH.jsonl] [--list]
-- RULES is a rule file or a directory (read as `--rules` reads it:
-- subdirectories too).  Prints how many rules load and how many are
-- refused, the refusals by reason (quoted values elided, but the log
-- source and the field named), and with BATCH.jsonl, the output of
--   ./sbxlua batch.lua --no-default-rules --rules RULES CORPUS > BATCH.jsonl
-- how many of the loaded rules fired on at least one program (with
-- --list: which, on which programs, and which did not).
local verdict = require "sbx.verdict"
local cjson = require "cjson"

local function usage(msg)
	io.stderr:write("sigma-coverage: ", msg, "\nusage: sbxlua scripts/sigma-coverage.lua RULES [BATCH.jsonl] [--list]\n")
	os.exit(2)
end

local args, list = {}, false
for _, a in ipairs(arg) do
	if a == "--list" then list = true
	elseif a:sub(1, 1) == "-" then usage("unknown option " .. a)
	else args[#args + 1] = a end
end
if not args[1] or args[3] then usage("one rule set and at most one batch output") end

local rules, skipped = verdict.load(args[1])
if not rules then usage(skipped) end

-- a refusal's class: its reason, quoted values elided except the log
-- source's and a field's names that say what is missing
local function class(why)
	local keep = why:match("^unsupported logsource: service '[^']*'") or why:match("^unknown field '[^']*' for [%w_ ]+")
		or why:match("^auditd record type [^:]+")
	return keep or (why:gsub("([%s(])'[^']*'", "%1'...'"))
end

local total = #rules + #skipped
print(("rules: %d, loaded: %d (%.1f%%), refused: %d"):format(total, #rules,
	total > 0 and 100 * #rules / total or 0, #skipped))
local by, order = {}, {}
for _, s in ipairs(skipped) do
	local c = class(s.why)
	if not by[c] then by[c], order[#order + 1] = {}, c end
	table.insert(by[c], s.source:match("[^/]*$"))
end
table.sort(order, function(a, b) return #by[a] == #by[b] and a < b or #by[a] > #by[b] end)
for _, c in ipairs(order) do print(("  refused %3d  %s  (%s)"):format(#by[c], c, table.concat(by[c], ", "))) end

if not args[2] then return end
local f, err = io.open(args[2])
if not f then usage(err) end
local fired, programs = {}, 0
for line in f:lines() do
	local ok, rec = pcall(cjson.decode, line)
	if not ok or type(rec) ~= "table" then usage(args[2] .. ": not a batch output line: " .. line:sub(1, 80)) end
	programs = programs + 1
	for _, r in ipairs(type(rec.reasons) == "table" and rec.reasons or {}) do
		if type(r.rule) == "string" then
			fired[r.rule] = fired[r.rule] or {}
			table.insert(fired[r.rule], tostring(rec.program))
		end
	end
end
f:close()
local n, names = 0, {}
for _, r in ipairs(rules) do
	if fired[r.name] then n = n + 1 end
	names[#names + 1] = r.name
end
print(("programs: %d, loaded rules that fired: %d of %d (%.1f%%)"):format(programs, n, #rules,
	#rules > 0 and 100 * n / #rules or 0))
if list then
	table.sort(names)
	for _, name in ipairs(names) do
		local p = fired[name]
		print(("  %-8s %s%s"):format(p and "fired" or "silent", name, p and ": " .. table.concat(p, ", ") or ""))
	end
end
