-- SPDX-License-Identifier: MIT
--- sbx.sample: the sample itself, the file a run is about: the program
-- named on the command line or, when that program is an interpreter
-- sbxlua knows (`sbx.stdbox.script_operand`), the script it is given
-- (`run.lua sh x.sh` is about x.sh).
--
-- The file is found as the box build finds it (`stdbox.find_program`,
-- `stdbox.host_path`: no symbolic link the caller does not own is
-- followed), opened once with no link followed on its last name
-- (`core.open_file`) and read whole by that descriptor, before the box
-- exists: the hashes (`core.hashes`: md5, sha1, sha256, ssdeep, tlsh)
-- and the bytes a YARA scan is given (`sbx.yara`) are of what was read
-- then, never of a name read again once a box could have changed it.
-- Its libmagic type is named by the confined inspection worker
-- (`core.filetype`), never in sbxlua.
local core = require "sbx.core"

local M = {}

local type, error = type, error

--- The most bytes of a sample read and hashed (a larger one has no
-- hashes: a hash of a part would be the hash of another file).
M.MAX_BYTES = 256 << 20

-- The host path of the file a run is about, or nil.
local function locate(prog, args)
	local stdbox = require "sbx.stdbox"
	local i = stdbox.script_operand(prog, args)
	local typed = i and args[i] or prog
	if not i then
		local p = stdbox.find_program(prog)
		if p then return p end
		-- a sample run by its content (not executable): its own path
		if not prog:find("/", 1, true) then return nil end
	end
	return (stdbox.host_path(typed))
end

--- The sample of a command line: its hashes and type, and its bytes.
-- @tparam string prog the program as typed
-- @tparam[opt] table args its arguments
-- @treturn table|nil `{ path =, size =, md5 =, sha1 =, sha256 =, ssdeep =,
--  tlsh =, type =, mime = }` (tlsh absent for content too short or too
--  uniform, type absent when no worker could name it); nil, why when
--  the file cannot be read (not found: the run says so itself)
-- @treturn string the bytes read (for `sbx.yara`)
function M.read(prog, args)
	if type(prog) ~= "string" then error("bad argument #1 to 'read' (string expected, got " .. type(prog) .. ")", 2) end
	if args ~= nil and type(args) ~= "table" then
		error("bad argument #2 to 'read' (table expected, got " .. type(args) .. ")", 2)
	end
	local path = locate(prog, args or {})
	if not path then return nil, "not found" end
	local f, msg = core.open_file(path)
	if not f then return nil, msg end
	local data, rerr = f:read(M.MAX_BYTES) -- EFBIG past it
	f:close()
	if not data then return nil, rerr end
	local s = core.hashes(data)
	s.path, s.size = path, #data
	s.type, s.mime = core.filetype(data)
	return s, data
end

return M
