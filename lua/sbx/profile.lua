--- sbx.profile: seccomp profiles, loaded by name and compiled.
-- A profile is data: a Lua file under `profiles/` that returns a
-- `sbx.core.filter` spec table, or `false` for "no filter" (`none`).
-- See docs/seccomp.md.
-- @module sbx.profile
local core = require "sbx.core"
local owner = require "sbx._owner"

local M = {}

--- The largest profile file read, in bytes.
M.MAX_SIZE = 1 << 20

-- Trust boundary: a profile decides the box's seccomp filter, and a box
-- may have written where it lies (`--rw .:/work --profile ./p.lua`): a box
-- that rewrites it to `return false` must not get the next run without a
-- filter.  So the file is opened once with no symlink on its path followed,
-- must be a regular file owned by root or the caller and writable by
-- neither group nor others, and what runs is what was read from that
-- descriptor, never a second lookup of the path.  (A root caller's box
-- writes as a host id of its own, so whatever it wrote is refused; an unprivileged
-- caller's box writes as the caller, and its files cannot be told apart
-- from the caller's own: keep profiles where no box writes.)  An owner
-- outside the caller's user namespace (shown as the overflow uid, e.g. the
-- host's root seen from a rootless container) is trusted as root is: no box
-- of ours can write as an id our namespace does not map.
local function untrusted(path, st)
	local ids = core.ids()
	if not owner.hosts(st.uid) and st.uid ~= ids.uid and st.uid ~= ids.euid then
		return ("%s is owned by uid %d, not by root or the caller"):format(path, st.uid)
	end
	if st.mode & tonumber("022", 8) ~= 0 then
		return ("%s is writable by group or others (mode %04o)"):format(path, st.mode)
	end
	return nil
end

-- The text of the profile file at path, checked as above; or nil, msg.
local function read_profile(path)
	local f <close>, msg = core.open_file(path)
	if not f then return nil, "cannot " .. msg end
	local st, smsg = f:stat()
	if not st then return nil, "cannot " .. smsg end
	local why = untrusted(path, st)
	if why then return nil, why end
	local text, rmsg = f:read(M.MAX_SIZE)
	if not text then return nil, "cannot " .. rmsg end
	return text
end

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
-- a `/` or ending in `.lua` is a file path.  The file is opened once with no
-- symlink on its path followed; it must be a regular file of at most
-- `M.MAX_SIZE` bytes, owned by root or the caller, writable by neither group
-- nor others; what was read from it runs in an empty environment (no
-- library, no global): a profile is data, not a script.
-- @tparam string name a profile name or a path
-- @return the spec table, or `false` for the `none` profile (no filter);
-- or nil and a message ("profile NAME: ...") when the profile is missing,
-- refused or malformed
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
	local text, rmsg = read_profile(path)
	if text == nil then
		return nil, "profile " .. name .. ": " .. rmsg
	end
	local chunk, msg = load(text, "@" .. path, "t", {})
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

--- Compiles a profile into a filter.  A profile's `notify` table (the
-- explain channel's table and default mode, docs/seccomp.md) is not part
-- of the filter: `M.notify` returns it.
--
-- With `opts.name_refusals`, every rule whose action is an errno other than
-- `ENOSYS` becomes `{errno = E, notify = true}`: the call is refused with
-- the same errno, and the supervisor names it (docs/seccomp.md, the explain
-- channel).  `ENOSYS` answers stay plain: they tell a program that a call
-- is missing so that it falls back (`clone3`, `openat2`), which is not a
-- refusal worth a line.  The calls the profile allows cost nothing more.
-- @param profile a spec table from `M.load`, or `false` (no filter)
-- @tparam[opt] table opts `{name_refusals = bool}`
-- @return an `sbx.filter`, or `false` for `false`; or nil, msg, errno when
-- libseccomp fails (a malformed spec raises, as `sbx.core.filter` does)
function M.compile(profile, opts)
	if opts ~= nil then
		if type(opts) ~= "table" then
			error(("bad argument #2 to 'compile' (table expected, got %s)"):format(type(opts)), 2)
		end
		for k in pairs(opts) do
			if k ~= "name_refusals" then
				error(("bad argument #2 to 'compile' (unknown key '%s')"):format(tostring(k)), 2)
			end
		end
	end
	if profile == false then return false end
	if type(profile) ~= "table" then
		error(("bad argument #1 to 'compile' (table or false expected, got %s)")
			:format(type(profile)), 2)
	end
	local spec = {}
	for k, v in pairs(profile) do
		if k ~= "notify" then spec[k] = v end
	end
	if opts and opts.name_refusals and type(spec.rules) == "table" then
		local rules = {}
		for i, r in ipairs(spec.rules) do
			local a = type(r) == "table" and r.action
			if type(a) == "table" and a.errno ~= nil and a.errno ~= "ENOSYS" and a.errno ~= 38
				and a.errno ~= 0 and a.notify == nil then
				local c = {}
				for k, v in pairs(r) do c[k] = v end
				c.action = { errno = a.errno, notify = true }
				rules[i] = c
			else
				rules[i] = r
			end
		end
		spec.rules = rules
	end
	return core.filter(spec)
end

--- The explain channel's settings of a profile: its `notify` table split
-- into the default mode and the supervisor's table (the core spec's
-- `notify`: `open`, `connect`, `mmap_cap`).
-- @param profile a spec table from `M.load`, or `false`
-- @return mode (a string or nil), table (or nil)
function M.notify(profile)
	if type(profile) ~= "table" or profile.notify == nil then return nil, nil end
	local n = profile.notify
	if type(n) ~= "table" then
		error("bad argument #1 to 'notify' (field 'notify' must be a table)", 2)
	end
	local t = {}
	for k, v in pairs(n) do
		if k ~= "mode" then t[k] = v end
	end
	return n.mode, t
end

return M
