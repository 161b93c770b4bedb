-- SPDX-License-Identifier: MIT
--- Compiles sbxlua's scripts and modules, and the modules of others that
-- every run loads (lua-argparse), into entries for sbxlua's loader
-- (core/api/chunk.c): make runs it after each change under lua/.
--   sbxlua scripts/luac.lua DIR SRC [AS]
-- DIR: the directory of entries; SRC: the lua/ tree to compile; AS: where
-- that tree is loaded from (default: the interpreter's own bundled
-- directory, as the build tree loads it; the installed one for `make
-- install`).
local core = require "sbx.core"

local dir, src, as = arg[1], arg[2], arg[3] or require("sbx.config").luadir
if not dir or not src then
	io.stderr:write("usage: sbxlua scripts/luac.lua DIR SRC [AS]\n")
	os.exit(2)
end

-- the relative paths of the .lua files under src, sorted
local function sources(root)
	local list = {}
	local walk = assert(io.popen("cd '" .. root:gsub("'", "'\\''") .. "' && find . -name '*.lua' -type f"))
	for line in walk:lines() do list[#list + 1] = line:sub(3) end
	assert(walk:close())
	table.sort(list)
	return list
end

for _, rel in ipairs(sources(src)) do
	assert(core.chunk_compile(src .. "/" .. rel, as .. "/" .. rel, dir))
end
-- lua-argparse where require finds it (sbx.cli)
local others = { "argparse" }
for _, name in ipairs(others) do
	local path = package.searchpath(name, package.path)
	if path then assert(core.chunk_compile(path, path, dir)) end
end
