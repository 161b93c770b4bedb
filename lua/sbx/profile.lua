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
-- While M.filter loads a profile, every text read for it, in order (the
-- cache's key: whatever a profile is made of decides its program).
local reading

local function read_profile(path)
	local f <close>, msg = core.open_file(path)
	if not f then return nil, "cannot " .. msg end
	local st, smsg = f:stat()
	if not st then return nil, "cannot " .. smsg end
	local why = untrusted(path, st)
	if why then return nil, why end
	local text, rmsg = f:read(M.MAX_SIZE)
	if not text then return nil, "cannot " .. rmsg end
	if reading then
		reading[#reading + 1] = #text .. ":" .. text
	end
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

-- The path and checked text of the profile name; raises on a bad name;
-- nil, msg when the file is missing or refused.
local function profile_text(name, fname)
	if type(name) ~= "string" then
		error(("bad argument #1 to '%s' (string expected, got %s)")
			:format(fname, type(name)), 3)
	end
	local path
	if name:find("/", 1, true) or name:sub(-4) == ".lua" then
		path = name
	elseif name:match("^[%w_%-]+$") then
		local dir, msg = M.dir()
		if dir == nil then return nil, msg end
		path = dir .. "/" .. name .. ".lua"
	else
		error(("bad argument #1 to '%s' (invalid profile name '%s')")
			:format(fname, name), 3)
	end
	local text, rmsg = read_profile(path)
	if text == nil then
		return nil, "profile " .. name .. ": " .. rmsg
	end
	return path, text
end

-- The spec of a profile's text (see M.load).
local function spec_of(name, path, text)
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
	local path, text = profile_text(name, "load")
	if path == nil then return nil, text end
	return spec_of(name, path, text)
end

-- ---- the compiled-program cache ----
--
-- libseccomp takes milliseconds to compile the default profile; its
-- program depends only on the spec, libseccomp's version and the
-- architecture.  So each compiled program is kept, under a name that is
-- the sha256 of those three, in a directory of the caller's own:
-- `$XDG_CACHE_HOME/sbxlua`, else `$HOME/.cache/sbxlua`, made 0700.
--
-- Trust boundary: a cached program becomes a box's filter.  The directory
-- must be a directory (no symlink), owned by the caller (effective uid),
-- with no right for group or others; each entry is opened with no symlink
-- on its path followed, must be a regular file owned by the caller and
-- writable by nobody else, and its text must carry the sha256 of the key
-- and the program it holds.  Anything else (another owner, a link, a
-- group-writable directory, a truncated or altered entry) is not loaded:
-- the profile is compiled afresh and the entry written anew.  A root
-- caller's box writes as a host id of its own, so it cannot plant an
-- entry; an unprivileged caller's box writes as the caller, so the
-- directory must not be bound writable into a box (`--rw` of it or of a
-- parent: see docs/performance.md).

local CACHE_FORMAT = "sbxlua-bpf 1"

--- The cache directory's path: `$XDG_CACHE_HOME/sbxlua`, else
-- `$HOME/.cache/sbxlua` (absolute paths only).
-- @treturn string the path, or nil when neither variable names one
function M.cache_dir()
	local base = os.getenv("XDG_CACHE_HOME")
	if base == nil or base:sub(1, 1) ~= "/" then
		local home = os.getenv("HOME")
		if home == nil or home:sub(1, 1) ~= "/" then return nil end
		base = home .. "/.cache"
	end
	return base .. "/sbxlua"
end

local function own(st, want)
	local ids = core.ids()
	return st ~= nil and st.type == want and st.uid == ids.euid
end

-- The cache directory, checked (made 0700 when absent, its parent too);
-- nil when there is none fit to use.
local function cache_dir()
	local path = M.cache_dir()
	if path == nil then return nil end
	local st = core.lstat(path)
	if st == nil then
		local parent = path:match("^(.*)/[^/]*$")
		if core.lstat(parent) == nil then core.mkdir(parent, tonumber("700", 8)) end
		core.mkdir(path, tonumber("700", 8))
		st = core.lstat(path)
	end
	if not own(st, "dir") or st.mode & tonumber("077", 8) ~= 0 then return nil end
	return path
end

-- The entry's text: header lines, then the program.
local function entry(key, bpf, rules, notify)
	local body = ("%s\n%d %s\n"):format(CACHE_FORMAT, rules, notify and "notify" or "-")
	return body .. core.sha256(key .. "\0" .. body .. bpf) .. "\n" .. bpf
end

-- A filter from the entry at path when it is sound, else nil.
local function cache_load(path, key)
	local f <close> = core.open_file(path)
	if f == nil then return nil end
	local st = f:stat()
	if not own(st, "file") or st.mode & tonumber("022", 8) ~= 0 then return nil end
	local text = f:read(M.MAX_SIZE)
	if text == nil then return nil end
	local head = #CACHE_FORMAT + 1
	if text:sub(1, head) ~= CACHE_FORMAT .. "\n" then return nil end
	local counts, sum, bpf = text:match("^(%d+ [%-%a]+\n)(%x+)\n(.*)$", head + 1)
	if counts == nil then return nil end
	local body = CACHE_FORMAT .. "\n" .. counts
	if sum ~= core.sha256(key .. "\0" .. body .. bpf) then return nil end
	local rules, notify = body:match("\n(%d+) ([%-%a]+)\n$")
	local ok, filter = pcall(core.filter_bpf, bpf, math.tointeger(rules), notify == "notify")
	if not ok then return nil end
	return filter
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

--- Loads and compiles a profile, through the cache.
-- As `M.compile(M.load(name))`, but the program is taken from the cache
-- (see `M.cache_dir`) when an entry for the same profile is there and
-- sound; else it is compiled, and kept there.  The profile is always loaded
-- (its text run, as `M.load` does); the key is the sha256 of a format tag,
-- libseccomp's version and the architecture, and the text of every file
-- read while loading it, in order: what a profile's program depends on,
-- since its text runs with no library and no global (where the files lie
-- does not change it).  The spec never
-- leaves this function, so nothing can change it between the key and the
-- compile.  A filter from the cache has no libseccomp context (`f:dump()`
-- fails on it); everything else is the same.
-- @tparam string name a profile name or a path, as for `M.load`
-- @tparam[opt] boolean nocache true: neither read nor write the cache
-- @return an `sbx.filter`, or `false` for a profile that returns false;
-- or nil, msg (errno) as `M.load` and `M.compile` fail
function M.filter(name, nocache)
	local texts = {}
	reading = texts
	local ok, spec, msg = pcall(M.load, name)
	reading = nil
	if not ok then error(tostring(spec):gsub("'load'", "'filter'"), 2) end
	if spec == nil then return nil, msg end
	if spec == false then return false end
	local dir = not nocache and cache_dir()
	local key, entry_name
	if dir then
		key = table.concat({ CACHE_FORMAT, core.filter_abi(), table.concat(texts, "\n") }, "\n")
		entry_name = core.sha256(key)
		local cached = cache_load(dir .. "/" .. entry_name, key)
		if cached then return cached end
	end
	local filter, ferr, errno = M.compile(spec)
	if not filter then return filter, ferr, errno end
	local info = filter:info()
	if dir and #info.skipped == 0 then
		local d <close> = core.open_dir(dir)
		if d then d:write(entry_name, entry(key, filter:export(), info.rules, info.notify)) end
	end
	return filter
end

return M
