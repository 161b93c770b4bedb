-- SPDX-License-Identifier: MIT
-- Prints the default rules' coverage as a Markdown table (docs/batch.md
-- holds it between its "rules-table" markers; tests/rules_spec.lua checks
-- that the two agree; scripts/rules-table.sh rewrites it there): each
-- rule's techniques with their names and its tactic as the ATT&CK release
-- of sbx.attack has them.
local attack = require "sbx.attack"
local verdict = require "sbx.verdict"

local function names(ids)
	local out = {}
	for i, id in ipairs(ids) do
		local t, why, to = attack.technique(id)
		out[i] = t and t.name or ("? (%s%s)"):format(why, to and " by " .. to or "")
	end
	return #out > 0 and table.concat(out, "; ") or "-"
end

local rules = assert(verdict.defaults())
local rows, ids, tactics = {}, {}, {}
for _, r in ipairs(rules) do
	local list = r.attack or {}
	local shown = #list > 0 and table.concat(list, ", ") or "-"
	for _, id in ipairs(list) do ids[id] = true end
	if #list > 0 and r.tactic then tactics[r.tactic] = true end
	rows[#rows + 1] = { shown, ("| %s | %s | `%s` | %s | %s | %s |"):format(shown, names(list), r.name,
		r.tactic or "box", r.severity and tostring(r.severity) or "varies",
		(r.doc or ""):gsub("|", "\\|"):gsub("\n", " ")) }
end
table.sort(rows, function(a, b) return a[1] == b[1] and a[2] < b[2] or a[1] < b[1] end)
local n_ids, n_tactics = 0, 0
for _ in pairs(ids) do n_ids = n_ids + 1 end
for _, t in ipairs(attack.tactics()) do
	if tactics[t] then n_tactics = n_tactics + 1 end
end
io.write(("%d rules name %d techniques under %d of the %d tactics of ATT&CK Enterprise %s (%s).\n\n")
	:format(#rules, n_ids, n_tactics, #attack.tactics(), attack.version, attack.date))
io.write("| technique | ATT&CK name | rule | tactic | severity | evidence |\n")
io.write("| --- | --- | --- | --- | --- | --- |\n")
for _, row in ipairs(rows) do io.write(row[2], "\n") end
