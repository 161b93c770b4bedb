std = "lua54"
max_line_length = 130
files["tests"] = { std = "+busted" }
files["profiles"] = { std = "lua54" }
-- rules files run with pure functions and sbx.rulekit as `rulekit`
files["rules"] = { std = "lua54", read_globals = { "rulekit" } }
