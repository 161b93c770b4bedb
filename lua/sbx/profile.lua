-- SPDX-License-Identifier: MIT
--- sbx.profile: seccomp profiles, loaded by name and compiled.
-- A profile is data: a Lua file under `profiles/` that returns a
-- `sbx.core.filter` spec table, or `false` for "no filter" (`none`).
-- See docs/seccomp.md.
-- @module sbx.profile
local core = require "sbx.core"
local owner = require "sbx._owner"
local argcheck = require("sbx._arg").check

local M = {}

--- The largest profile file read, in bytes.
M.MAX_SIZE = 1 << 20

--- How deep profiles may load each other (`(...).load(name)`).
M.MAX_DEPTH = 4

-- profiles being loaded now, one inside the other
local depth = 0

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
-- cache's key: whatever a profile is made of decides its program): the
-- profile's own file, the call lists its `calls` reads and the profiles
-- its `load` reads all come through here.
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

--- The directory of sbxlua's data `name` ("profiles" or "rules"):
-- `<luadir>/../<name>`, where luadir is `sbx.config`'s `luadir` when the
-- sbxlua interpreter set one, else the directory `module` was found under
-- on `package.path`: the source tree's `lua/`, or, for a stock `lua5.4`
-- on an installed tree (modules under `<prefix>/share/lua/5.4`), the
-- installed `<prefix>/share/sbxlua/lua`.
-- @treturn string the directory, or nil and a message when neither is known
function M.data_dir(name, module)
	if name ~= "profiles" and name ~= "rules" then
		error(("bad argument #1 to 'data_dir' (\"profiles\" or \"rules\" expected, got %s)"):format(
			type(name) == "string" and ("%q"):format(name) or type(name)), 2)
	end
	argcheck(module, "string", 2, "data_dir")
	local config = package.loaded["sbx.config"]
	local luadir = type(config) == "table" and config.luadir or nil
	if luadir == nil then
		local path = package.searchpath(module, package.path)
		if path == nil then
			return nil, ("%s: cannot find %s on package.path"):format(name, module)
		end
		luadir = dirname(dirname(path))
		local installed = luadir:match("^(.*)/lua/5%.4$")
		local f = installed and io.open(installed .. "/sbxlua/lua/run.lua")
		if f then
			f:close()
			luadir = installed .. "/sbxlua/lua"
		end
	end
	return luadir .. "/../" .. name
end

--- The directory the named profiles live in (`M.data_dir`).
-- @treturn string the directory, or nil and a message when it is not known
function M.dir()
	return M.data_dir("profiles", "sbx.profile")
end

-- The first line of a file, or nil.
local function first_line(path)
	local f = io.open(path)
	if f == nil then return nil end
	local line = f:read("l")
	f:close()
	return line
end

--- The platform whose measured call lists apply to this process: its
-- architecture (`uname -m`, from /proc/sys/kernel/arch) and its C library
-- (`glibc` or `musl`, from the libraries mapped in /proc/self/maps).
-- @treturn table `{ arch = "x86_64", libc = "glibc" }`, or nil and a message
function M.host()
	local arch = first_line("/proc/sys/kernel/arch")
	if arch == nil or not arch:match("^[%w_]+$") then
		return nil, "profiles: cannot read the architecture from /proc/sys/kernel/arch"
	end
	local f = io.open("/proc/self/maps")
	if f == nil then return nil, "profiles: cannot read /proc/self/maps" end
	local maps = f:read("a")
	f:close()
	local libc
	if maps:find("/ld%-musl%-[%w_]+%.so") then
		libc = "musl"
	elseif maps:find("/libc%.so%.6\n") then
		libc = "glibc"
	else
		return nil, "profiles: cannot tell the C library (neither glibc nor musl is mapped)"
	end
	return { arch = arch, libc = libc }
end

local function check_opts(fname, opts, keys)
	if opts == nil then return {} end
	if type(opts) ~= "table" then
		error(("bad argument #2 to '%s' (table expected, got %s)"):format(fname, type(opts)), 3)
	end
	for k in next, opts do
		if not keys[k] then
			error(("bad argument #2 to '%s' (unknown key '%s')"):format(fname, tostring(k)), 3)
		end
	end
	for _, k in ipairs { "arch", "libc" } do
		local v = rawget(opts, k)
		if v ~= nil and (type(v) ~= "string" or not v:match("^[%w_]+$")) then
			error(("bad argument #2 to '%s' (invalid %s)"):format(fname, k), 3)
		end
	end
	return opts
end

--- Loads a measured call list: `<M.dir()>/calls/ARCH-LIBC-STEP.lua`, a file
-- written by scripts/trace-profile.sh that returns a sorted array of system
-- call names (docs/seccomp.md, "The strict profile").  It is read as a
-- profile is (same checks, empty environment); every name must be one
-- libseccomp knows, in strictly ascending order.
-- @tparam string step a step name: "program", "threads", "net", "spawn"
-- @tparam[opt] table opts `arch`, `libc` (default: `M.host()`'s)
-- @return a new array of names; or nil and a message naming the list and
-- the entry ("calls x86_64-glibc-net: unknown system call 'foo' (entry 3)")
function M.calls(step, opts)
	argcheck(step, "string", 1, "calls")
	if not step:match("^[%a_][%w_]*$") then
		error(("bad argument #1 to 'calls' (invalid step name '%s')"):format(step), 2)
	end
	opts = check_opts("calls", opts, { arch = true, libc = true })
	local arch, libc = rawget(opts, "arch"), rawget(opts, "libc")
	if arch == nil or libc == nil then
		local host, hmsg = M.host()
		if host == nil then return nil, hmsg end
		arch, libc = arch or host.arch, libc or host.libc
	end
	local dir, dmsg = M.dir()
	if dir == nil then return nil, dmsg end
	local name = ("%s-%s-%s"):format(arch, libc, step)
	local path = ("%s/calls/%s.lua"):format(dir, name)
	local function fail(fmt, ...)
		return nil, ("calls %s: " .. fmt):format(name, ...)
	end
	local text, rmsg = read_profile(path)
	if text == nil then return fail("%s", rmsg) end
	local chunk, cmsg = load(text, "@" .. path, "t", {})
	if chunk == nil then return fail("%s", cmsg) end
	local ok, list = pcall(chunk)
	if not ok then return fail("%s", tostring(list)) end
	if type(list) ~= "table" then
		return fail("returns a %s, not an array of names", type(list))
	end
	local out, n = {}, 0
	for k in next, list do
		if math.type(k) ~= "integer" or k < 1 then
			return fail("key %s is not an array index", tostring(k))
		end
		n = n + 1
	end
	for i = 1, n do
		local v = rawget(list, i)
		if type(v) ~= "string" then
			return fail("entry %d is a %s, not a name", i, type(v))
		end
		if core.syscall_number(v) == nil then
			return fail("unknown system call '%s' (entry %d)", v, i)
		end
		if i > 1 and v <= out[i - 1] then
			return fail("'%s' (entry %d) is out of order or repeated", v, i)
		end
		out[i] = v
	end
	return out
end

-- load's steps checked and copied (nil: none); raises as load does.
local function load_steps(steps)
	if steps == nil then return nil end
	if type(steps) ~= "table" or rawlen(steps) == 0 then
		error("bad argument #2 to 'load' (steps: a non-empty list of step names expected)", 3)
	end
	local copy = {}
	for i = 1, rawlen(steps) do
		local s = rawget(steps, i)
		if type(s) ~= "string" or not s:match("^[%a_][%w_]*$") then
			error(("bad argument #2 to 'load' (steps[%d]: invalid step name)"):format(i), 3)
		end
		copy[i] = s
	end
	return copy
end

--- Whether s names a profile `M.load` takes: a file's path (with a `/`
-- or ending in `.lua`) or a name of letters, digits, `_` and `-`.
-- @treturn boolean
function M.is_name(s)
	return type(s) == "string" and (s:find("/", 1, true) ~= nil or s:sub(-4) == ".lua"
		or s:match("^[%w_%-]+$") ~= nil)
end

-- The file of a profile: a path as given, or a name in `M.dir()`; raises
-- as load does for a name that is neither.
-- @return the path, or nil, msg
local function profile_path(name)
	if name:find("/", 1, true) or name:sub(-4) == ".lua" then return name end
	if not M.is_name(name) then
		error(("bad argument #1 to 'load' (invalid profile name '%s')")
			:format(name), 3)
	end
	local dir, msg = M.dir()
	if dir == nil then return nil, msg end
	return dir .. "/" .. name .. ".lua"
end

--- Loads a profile.
-- A bare name ("default", "none") names `<M.dir()>/<name>.lua`; a name with
-- a `/` or ending in `.lua` is a file path.  The file is opened once with no
-- symlink on its path followed; it must be a regular file of at most
-- `M.MAX_SIZE` bytes, owned by root or the caller, writable by neither group
-- nor others; what was read from it runs in an empty environment (no
-- library, no global): a profile is data, not a script.  Its one argument
-- (`...`) is a table: `steps` (from opts, or nil), `calls(step)` (the
-- measured list of that step for this platform, `M.calls`; raises on error)
-- and `load(name [, steps])` (another profile, `M.load` with those steps;
-- raises on error), so that `return (...).load("strict", { "program",
-- "net" })` is a profile.  The
-- strict profile uses them; the default profile ignores them.
-- @tparam string name a profile name or a path
-- @tparam[opt] table opts `steps` (a list of step names for the profile's
-- `calls`), `arch`, `libc` (the platform of the lists; default `M.host()`)
-- @return the spec table, or `false` for the `none` profile (no filter);
-- or nil and a message ("profile NAME: ...") when the profile is missing,
-- refused or malformed
function M.load(name, opts)
	if type(name) ~= "string" then
		error(("bad argument #1 to 'load' (string expected, got %s)")
			:format(type(name)), 2)
	end
	opts = check_opts("load", opts, { steps = true, arch = true, libc = true })
	local steps = load_steps(rawget(opts, "steps"))
	local path, perr = profile_path(name)
	if path == nil then return nil, perr end
	local text, rmsg = read_profile(path)
	if text == nil then
		return nil, "profile " .. name .. ": " .. rmsg
	end
	local chunk, msg = load(text, "@" .. path, "t", {})
	if chunk == nil then
		return nil, "profile " .. name .. ": " .. msg
	end
	local platform = { arch = rawget(opts, "arch"), libc = rawget(opts, "libc") }
	local ctx = {
		steps = steps,
		calls = function(step)
			local list, cmsg = M.calls(step, platform)
			if list == nil then error(cmsg, 0) end
			return list
		end,
		load = function(other, other_steps)
			local p, pmsg = M.load(other, {
				steps = other_steps, arch = platform.arch, libc = platform.libc,
			})
			if p == nil then error(pmsg, 0) end
			return p
		end,
	}
	if depth >= M.MAX_DEPTH then
		return nil, ("profile %s: profiles load each other deeper than %d")
			:format(name, M.MAX_DEPTH)
	end
	depth = depth + 1
	local ok, spec = pcall(chunk, ctx)
	depth = depth - 1
	if not ok then
		return nil, "profile " .. name .. ": " .. tostring(spec)
	end
	if spec ~= false and type(spec) ~= "table" then
		return nil, ("profile %s: returns a %s, not a table or false")
			:format(name, type(spec))
	end
	return spec
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

local CACHE_FORMAT = "sbxlua-bpf 4"

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

-- The entry: the format, a header line (what f:info() says beside the
-- program: rules, notify, exec_notified; and the length of the packed
-- named refusals, f:export_refusals()), the sha256 of the key and
-- all that precedes and follows it, then the refusals and the program.
local function entry(key, filter)
	local info = filter:info()
	local bpf, refusals = filter:export(), filter:export_refusals()
	local body = ("%s\n%d %s %s %d\n"):format(CACHE_FORMAT, info.rules, info.notify and "notify" or "-",
		info.exec_notified and "exec" or "-", #refusals)
	return body .. core.sha256(key .. "\0" .. body .. refusals .. bpf) .. "\n" .. refusals .. bpf
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
	local counts, sum, at = text:match("^(%d+ [%-%a]+ [%-%a]+ %d+\n)(%x+)\n()", head + 1)
	if counts == nil then return nil end
	local body = CACHE_FORMAT .. "\n" .. counts
	local rest = text:sub(at)
	if sum ~= core.sha256(key .. "\0" .. body .. rest) then return nil end
	local rules, notify, exec, nref = counts:match("^(%d+) ([%-%a]+) ([%-%a]+) (%d+)\n$")
	nref = math.tointeger(nref)
	if nref == nil or nref > #rest then return nil end
	local ok, filter = pcall(core.filter_bpf, rest:sub(nref + 1), math.tointeger(rules), notify == "notify",
		exec == "exec", rest:sub(1, nref))
	if not ok then return nil end
	return filter
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
-- refusal worth a line; but for `memfd_create` (`NAMED_ENOSYS`), the first
-- step of a fileless exec, which is named all the same.  The calls the
-- profile allows cost nothing more.
-- @param profile a spec table from `M.load`, or `false` (no filter)
-- @tparam[opt] table opts `{name_refusals = bool}`
-- @return an `sbx.filter`, or `false` for `false`; or nil, msg, errno when
-- libseccomp fails (a malformed spec raises, as `sbx.core.filter` does)
-- ENOSYS refusals named under `name_refusals` all the same: a fileless
-- exec begins with memfd_create
local NAMED_ENOSYS = { memfd_create = true }

-- The rules of a profile with its `watched` calls (a list of names) added
-- as notify rules: sent to the supervisor, which lets them through in
-- every mode (`M.notify` sets the table's `watch`).  A bad `watched`
-- raises.
local function with_watched(profile)
	local w = profile.watched
	if w == nil then return profile.rules end
	if type(w) ~= "table" or type(profile.rules) ~= "table" then
		error("bad argument #1 to 'compile' (field 'watched' must be a list of call names)", 3)
	end
	local rules = {}
	for i, r in ipairs(profile.rules) do rules[i] = r end
	for i, name in ipairs(w) do
		if type(name) ~= "string" then
			error(("bad argument #1 to 'compile' (watched[%d] must be a call name)"):format(i), 3)
		end
		rules[#rules + 1] = { call = name, action = "notify" }
	end
	return rules
end

function M.compile(profile, opts)
	if opts ~= nil then
		argcheck(opts, "table", 2, "compile")
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
		if k ~= "notify" and k ~= "watched" then spec[k] = v end
	end
	spec.rules = with_watched(profile)
	-- every profile's filter sends flock and fcntl's locks to the
	-- supervisor before its own rules (no lock of the box on a host file:
	-- docs/seccomp.md, "Locks"); the one owner of that rule, whatever a
	-- profile says of flock or fcntl
	spec.locks = true
	if opts and opts.name_refusals and type(spec.rules) == "table" then
		local rules = {}
		for i, r in ipairs(spec.rules) do
			local a = type(r) == "table" and r.action
			local e = type(a) == "table" and a.errno
			local plain = (e == "ENOSYS" or e == 38) and not NAMED_ENOSYS[r.call]
			if e ~= nil and e ~= false and not plain and e ~= 0 and a.notify == nil then
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
-- `notify`: `open`, `change`, `connect`, `mmap_cap`, `tasks`, `execs`).
-- @param profile a spec table from `M.load`, or `false`
-- @return mode (a string or nil), table (or nil)
function M.notify(profile)
	if type(profile) == "table" and profile.notify == nil and profile.watched ~= nil then
		-- watched calls are let through in every mode
		return nil, { watch = true }
	end
	if type(profile) ~= "table" or profile.notify == nil then return nil, nil end
	local n = profile.notify
	if type(n) ~= "table" then
		error("bad argument #1 to 'notify' (field 'notify' must be a table)", 2)
	end
	local t = {}
	for k, v in pairs(n) do
		if k ~= "mode" then t[k] = v end
	end
	if profile.watched ~= nil then t.watch = true end
	return n.mode, t
end

--- Loads and compiles a profile, through the cache.
-- As `M.compile(M.load(name), opts)`, but the program is taken from the
-- cache (see `M.cache_dir`) when an entry for the same profile is there and
-- sound; else it is compiled, and kept there.  The profile is always loaded
-- (its text run, as `M.load` does); the key is the sha256 of a format tag,
-- libseccomp's version and the architecture, `name_refusals`, and the text
-- of every file read while loading it, in order (the profile's own, the
-- call lists its `calls` reads, the profiles its `load` reads): what a
-- profile's program depends on, since its text runs with no library and no
-- global (where the files lie does not change it).  The program is made
-- from the spec before the spec is returned, so nothing can change it
-- between the key and the compile.  A filter from the cache has no
-- libseccomp context (`f:dump()` fails on it); everything else is the
-- same (`f:info()`'s rules, notify, exec_notified and errnos included).
-- @tparam string name a profile name or a path, as for `M.load`
-- @tparam[opt] table opts `name_refusals` (as for `M.compile`), `nocache`
-- (true: neither read nor write the cache)
-- @return an `sbx.filter`, or `false` for a profile that returns false,
-- and the profile's spec (as `M.load` returns it: for `M.notify`);
-- or nil, msg (errno) as `M.load` and `M.compile` fail
function M.filter(name, opts)
	if opts ~= nil then
		argcheck(opts, "table", 2, "filter")
		for k in pairs(opts) do
			if k ~= "name_refusals" and k ~= "nocache" then
				error(("bad argument #2 to 'filter' (unknown key '%s')"):format(tostring(k)), 2)
			end
		end
	end
	local named = opts ~= nil and opts.name_refusals and true or false
	local texts = {}
	reading = texts
	local ok, spec, msg = pcall(M.load, name)
	reading = nil
	if not ok then error(tostring(spec):gsub("'load'", "'filter'"), 2) end
	if spec == nil then return nil, msg end
	if spec == false then return false, false end
	local dir = not (opts and opts.nocache) and cache_dir()
	local key, entry_name
	if dir then
		key = table.concat({ CACHE_FORMAT, core.filter_abi(), "name_refusals " .. tostring(named)
			.. (named and " memfd_create" or ""), table.concat(texts, "\n") }, "\n")
		entry_name = core.sha256(key)
		local cached = cache_load(dir .. "/" .. entry_name, key)
		if cached then return cached, spec end
	end
	local filter, ferr, errno = M.compile(spec, named and { name_refusals = true } or nil)
	if not filter then return filter, ferr, errno end
	if dir and #filter:info().skipped == 0 then
		local d <close> = core.open_dir(dir)
		if d then d:write(entry_name, entry(key, filter)) end
	end
	return filter, spec
end

return M
