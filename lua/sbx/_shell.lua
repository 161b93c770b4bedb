-- SPDX-License-Identifier: MIT
--- Host commands from sbxlua's own Lua (the backends, the explorer): a word
-- quoted for `sh`, and a command run through `io.popen`.  Only for
-- commands sbxlua composes itself; every operand goes through `quote`.
-- @module sbx._shell
local argcheck = require("sbx._arg").check

local M = {}

--- A word for `sh`: in single quotes, each `'` as `'\''`.
-- @param s a string (anything else through `tostring`)
-- @treturn string
function M.quote(s)
	return "'" .. tostring(s):gsub("'", "'\\''") .. "'"
end

--- Runs a command line with `sh`.
-- @tparam string cmd
-- @return its standard output, whether it exited 0, and its exit status
-- (0 when it did)
function M.run(cmd)
	local f = assert(io.popen(cmd, "r"))
	local out = f:read("a")
	local ok, _, code = f:close()
	return out, ok == true, ok and 0 or code
end

--- A new private directory (mode 0700, mktemp's) `DIR/sbxlua-KIND.XXXXXXXX`.
-- @tparam string dir
-- @tparam string kind `process`, `oci`, `podman`
-- @return its path, or nil
function M.private_dir(dir, kind)
	if type(dir) ~= "string" or type(kind) ~= "string" or not kind:match("^%a+$") then
		error("bad argument to 'private_dir' (a directory and a kind's name expected)", 2)
	end
	local p = M.run("mktemp -d " .. M.quote(dir .. "/sbxlua-" .. kind .. ".XXXXXXXX") .. " 2>/dev/null")
	return p:match("^(/[%w/._-]+)\n")
end

--- Removes a directory `M.private_dir(dir, kind)` made, and nothing else:
-- its contents given back to the caller first (a directory a program left
-- without write permission cannot be emptied; chmod -R and rm -rf follow
-- no link they meet).
-- @tparam string dir
-- @tparam string kind
-- @tparam string p the path `M.private_dir` gave
function M.remove_dir(dir, kind, p)
	local pat = "^" .. dir:gsub("%p", "%%%0") .. "/sbxlua%-" .. kind .. "%.[%w]+$"
	if type(p) == "string" and p:match(pat) then
		os.execute("chmod -R u+rwx -- " .. M.quote(p) .. " 2>/dev/null; rm -rf -- " .. M.quote(p))
	end
end

--- Writes a file of sbxlua's own (a bundle's, a hook's), its mode set
-- when given.
-- @tparam string path
-- @tparam string data
-- @tparam[opt] integer mode
-- @return true, or nil, msg
function M.write_file(path, data, mode)
	local f, msg = io.open(path, "w")
	if not f then return nil, msg end
	f:write(data)
	f:close()
	if mode then os.execute(("chmod %o %s"):format(mode, M.quote(path))) end
	return true
end

--- A whole file of sbxlua's own (one it wrote, or a runtime's record in a
-- directory it made), or nil when it cannot be opened.
-- @tparam string path
-- @treturn string|nil
function M.read_file(path)
	argcheck(path, "string", 1, "read_file")
	local f <close> = io.open(path, "rb")
	return f and f:read("a")
end

return M
