-- SPDX-License-Identifier: MIT
-- Prints the default rules' coverage as a Markdown table (docs/batch.md
-- holds it between its "rules-table" markers; tests/rules_spec.lua checks
-- that the two agree; scripts/rules-table.sh rewrites it there)
local verdict = require "sbx.verdict"

local rules = assert(verdict.defaults())
local rows = {}
for _, r in ipairs(rules) do
	local ids = r.attack and #r.attack > 0 and table.concat(r.attack, ", ") or "-"
	rows[#rows + 1] = { ids, ("| %s | `%s` | %s | %s | %s |"):format(ids, r.name, r.tactic or "box",
		r.severity and tostring(r.severity) or "varies", (r.doc or ""):gsub("|", "\\|"):gsub("\n", " ")) }
end
table.sort(rows, function(a, b) return a[1] == b[1] and a[2] < b[2] or a[1] < b[1] end)
io.write("| technique | rule | tactic | severity | evidence |\n| --- | --- | --- | --- | --- |\n")
for _, row in ipairs(rows) do io.write(row[2], "\n") end
