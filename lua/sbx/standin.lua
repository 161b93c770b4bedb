-- SPDX-License-Identifier: MIT
--- sbx.standin: the stand-ins for the tools a host lacks, in the analysis
-- box (docs/standins.md).
--
-- sudo, crontab, at, nc... are absent on many hosts: a shell looks the
-- name up itself, prints `not found`, and no exec happens, so what the
-- sample meant to do leaves no event.  The analysis box puts a read-only
-- directory last on its PATH where each such name is a link to one small
-- program of sbxlua's (core/standin/), which plays the tool as it behaves
-- for an unprivileged user: `sudo CMD` runs CMD, `crontab -` writes the
-- table where cron keeps it (an attempt the box records), `systemctl
-- stop` is refused.  A name present in one of the box's PATH directories
-- gets no link: a host tool is never shadowed.
-- @module sbx.standin
local core = require "sbx.core"
local argcheck = require("sbx._arg").check

local M = {}

--- Where the box finds the stand-ins: `dir`, the directory last on its
-- PATH, holding one link per name; `program`, the path every link names
-- (the host's program written there, a file of the box's read-only root:
-- a bind would show its host path, sbxlua's directory, in the box's
-- /proc/self/mountinfo).  Ordinary paths of a host with snapd: nothing
-- in them names the sandbox.
M.box = { dir = "/snap/bin", program = "/snap/snapd/current/usr/bin/snap" }

-- a tool's name, as the names file may hold it
local NAME = "^[%w][%w%._%-]*$"

-- the directory of the build or install tree that holds the stand-ins:
-- beside the compiled chunks (`sbx.config`'s luacdir: build/luac in the
-- build tree, <libdir>/sbxlua/luac installed); for a stock lua5.4, from
-- where this module was found (the build tree's lua/, or an installed
-- <prefix>/share/lua/5.4)
local function host_dir()
	local config = package.loaded["sbx.config"]
	if type(config) == "table" and type(config.luacdir) == "string" and config.luacdir ~= "" then
		return config.luacdir:gsub("/+$", ""):match("^(.*)/[^/]+$") .. "/standin"
	end
	local path = package.searchpath("sbx.standin", package.path)
	local luadir = path and path:match("^(.*)/sbx/standin%.lua$")
	if not luadir then return nil, "cannot find sbx.standin on package.path" end
	local prefix = luadir:match("^(.*)/share/lua/5%.4$")
	if prefix then return prefix .. "/lib/sbxlua/standin" end
	return (luadir:match("^(.*)/lua$") or luadir .. "/..") .. "/build/standin"
end

--- The largest stand-in program the box takes (it is written on the
-- box's root, a small tmpfs).
M.MAX_BYTES = 512 * 1024

local found -- { program = host path, names = list, data = its bytes } once read

--- The host's stand-in program, its bytes and the names it plays, read
-- once per process from sbxlua's own tree (never from a place a box can
-- write), the program by descriptor.
-- @return `{ program = path, data = bytes, names = list }`, or nil and
-- the reason
function M.host()
	if found then return found end
	local dir, why = host_dir()
	if not dir then return nil, why end
	local program = core.realpath(dir .. "/standin")
	local st = program and core.lstat(program)
	if not (st and st.type == "file") then return nil, dir .. "/standin: not found" end
	local f, err = io.open(dir .. "/names")
	if not f then return nil, err end
	local names = {}
	for l in f:lines() do
		if l:match(NAME) then names[#names + 1] = l end
	end
	f:close()
	local pf, perr = core.open_file(program)
	if not pf then return nil, perr end
	local data = pf:read(M.MAX_BYTES + 1) or ""
	pf:close()
	if #data > M.MAX_BYTES then return nil, program .. ": larger than " .. M.MAX_BYTES .. " bytes" end
	found = { program = program, names = names, data = data }
	return found
end

--- Whether the tool `name` is in one of the directories of `path` (a
-- PATH string, as the box sees it; the box's /usr is the host's): any
-- node there, even a dangling link, keeps the stand-in out.
-- @tparam string name
-- @tparam string path
-- @treturn boolean
function M.present(name, path)
	if type(name) ~= "string" or not name:match(NAME) then
		error("bad argument #1 to 'present' (a tool's name expected)", 2)
	end
	argcheck(path, "string", 2, "present")
	for d in path:gmatch("[^:]+") do
		if d:sub(1, 1) == "/" and d ~= M.box.dir and core.lstat(d .. "/" .. name) then return true end
	end
	return false
end

local absent_of = {}

--- The box's tree entries for the stand-ins: the program written at
-- `M.box.program` (mode 0755, on the read-only root), a link per name absent from `path`'s directories,
-- and the Landlock rule that lets the box read and run them.
-- @tparam string path the box's PATH before the stand-ins' directory
-- @return mounts (a list), rule, the read-only root; or nil and the
-- reason (no stand-in program in sbxlua's tree)
function M.tree(path)
	argcheck(path, "string", 1, "tree")
	local h, why = M.host()
	if not h then return nil, why end
	-- the names absent from path's directories, looked up once per
	-- process (a batch's boxes share them: the host's system
	-- directories, which no box writes)
	local absent = absent_of[path]
	if not absent then
		absent = {}
		for _, name in ipairs(h.names) do
			if not M.present(name, path) then absent[#absent + 1] = name end
		end
		absent_of[path] = absent
	end
	local mounts = { { type = "file", dst = M.box.program, data = h.data, mode = tonumber("755", 8) } }
	for _, name in ipairs(absent) do
		mounts[#mounts + 1] = { type = "symlink", target = M.box.program, dst = M.box.dir .. "/" .. name }
	end
	local top = M.box.dir:match("^(/[^/]+)")
	return mounts, { path = top, access = "ro" }, top
end

return M
