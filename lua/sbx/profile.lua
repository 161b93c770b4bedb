--- sbx.profile: seccomp profiles, loaded by name and compiled.
-- A profile is data: a Lua file under `profiles/` that returns a
-- `sbx.core.filter` spec table, or `false` for "no filter" (`none`).
-- See docs/seccomp.md.
-- @module sbx.profile
local core = require "sbx.core"

local M = {}

-- The directory part of a path ("." when it has none).
local function dirname(path)
	local dir = path:match("^(.*)/[^/]*$")
	if dir == nil then return "." end
	if dir == "" then return "/" end
	return dir
end

--- The directory the named profiles live in: `<luadir>/../profiles`, where
-- luadir is `sbx.config`'s `luadir` when the sbxlua interpreter set one,
-- else the directory this module was found under on `package.path`.
-- @treturn string the directory, or nil and a message when neither is known
function M.dir()
	local config = package.loaded["sbx.config"]
	local luadir = type(config) == "table" and config.luadir or nil
	if luadir == nil then
		local path = package.searchpath("sbx.profile", package.path)
		if path == nil then
			return nil, "profiles: cannot find sbx/profile.lua on package.path"
		end
		luadir = dirname(dirname(path))
	end
	return luadir .. "/../profiles"
end

--- Loads a profile.
-- A bare name ("default", "none") names `<M.dir()>/<name>.lua`; a name with
-- a `/` or ending in `.lua` is a file path.  The file runs in an empty
-- environment (no library, no global): a profile is data, not a script.
-- @tparam string name a profile name or a path
-- @return the spec table, or `false` for the `none` profile (no filter);
-- or nil and a message when the profile is missing or malformed
function M.load(name)
	if type(name) ~= "string" then
		error(("bad argument #1 to 'load' (string expected, got %s)")
			:format(type(name)), 2)
	end
	local path
	if name:find("/", 1, true) or name:sub(-4) == ".lua" then
		path = name
	elseif name:match("^[%w_%-]+$") then
		local dir, msg = M.dir()
		if dir == nil then return nil, msg end
		path = dir .. "/" .. name .. ".lua"
	else
		error(("bad argument #1 to 'load' (invalid profile name '%s')")
			:format(name), 2)
	end
	local chunk, msg = loadfile(path, "t", {})
	if chunk == nil then
		return nil, "profile " .. name .. ": " .. msg
	end
	local ok, spec = pcall(chunk)
	if not ok then
		return nil, "profile " .. name .. ": " .. tostring(spec)
	end
	if spec ~= false and type(spec) ~= "table" then
		return nil, ("profile %s: returns a %s, not a table or false")
			:format(name, type(spec))
	end
	return spec
end

--- Compiles a profile into a filter.
-- @param profile a spec table from `M.load`, or `false` (no filter)
-- @return an `sbx.filter`, or `false` for `false`; or nil, msg, errno when
-- libseccomp fails (a malformed spec raises, as `sbx.core.filter` does)
function M.compile(profile)
	if profile == false then return false end
	if type(profile) ~= "table" then
		error(("bad argument #1 to 'compile' (table or false expected, got %s)")
			:format(type(profile)), 2)
	end
	return core.filter(profile)
end

return M
