-- SPDX-License-Identifier: MIT
--- Writes a man page from its source in docs/man/ (make man): each line
-- `@OPTIONS script@` becomes the options of that script, as the registry
-- `sbx.options` declares them (`options.of`), so the page cannot drift
-- from the command line; `@VERSION@` becomes the version, `@PREFIX@`
-- the installation's prefix.
--   sbxlua scripts/man.lua SOURCE VERSION PREFIX > PAGE
local options = require "sbx.options"

local src, version, prefix = arg[1], arg[2], arg[3]
if not src or not version or not prefix then
	io.stderr:write("usage: sbxlua scripts/man.lua SOURCE VERSION PREFIX > PAGE\n")
	os.exit(2)
end

-- text as roff reads it: a backslash escaped, a line that would start
-- with a control character protected
local function roff(s)
	s = s:gsub("\\", "\\e")
	return (s:gsub("^([.'])", "\\&%1"))
end

-- a help text as roff lines of at most 78 bytes
local function lines(text)
	local out, cur = {}, nil
	for word in text:gmatch("%S+") do
		if cur and #cur + 1 + #word > 78 then
			out[#out + 1], cur = roff(cur), word
		else
			cur = cur and cur .. " " .. word or word
		end
	end
	out[#out + 1] = roff(cur or "")
	return table.concat(out, "\n")
end

-- "-v --verbose" and "SIZE" as a tag: \fB\-v\fR, \fB\-\-verbose\fR \fISIZE\fR
local function tag(names, argname)
	local t = {}
	for n in names:gmatch("%S+") do t[#t + 1] = "\\fB" .. n:gsub("%-", "\\-") .. "\\fR" end
	local s = table.concat(t, ", ")
	if argname then s = s .. " \\fI" .. roff(argname):gsub("%-", "\\-") .. "\\fR" end
	return s
end

local function option_list(script)
	local out = {}
	for _, o in ipairs(options.shown(script)) do
		out[#out + 1] = ".TP\n" .. tag(o[1], o[2]) .. "\n" .. lines(o[3]) .. "\n"
	end
	return table.concat(out)
end

local f = assert(io.open(src))
for line in f:lines() do
	local script = line:match("^@OPTIONS (%a+)@$")
	if script then
		io.write(option_list(script))
	else
		local text = line:gsub("@VERSION@", version):gsub("@PREFIX@", (prefix:gsub("%%", "%%%%")))
		io.write(text, "\n")
	end
end
f:close()
