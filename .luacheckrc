std = "lua54"
max_line_length = 130
files["tests"] = { std = "+busted" }
files["profiles"] = { std = "lua54" }
