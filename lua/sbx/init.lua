-- SPDX-License-Identifier: MIT
--- sbx: the Lua facade of sbxlua.
-- Scripts and operators use this module; only `lua/sbx/*.lua` reach into
-- the C core `sbx.core`.  The core has mechanism and no policy: the standard
-- box, profiles, the report and verdicts are Lua modules beside this one.
-- @module sbx
local core = require "sbx.core"
local argcheck = require("sbx._arg").check

local M = {}

M.version = core.version
--- Errno numbers by name (`sbx.errno.EPERM`).
M.errno = core.errno
--- Signal numbers by name (`sbx.signal.SIGKILL`).
M.signal = core.signal

-- Safe defaults.  `sbx.core.box` is mechanism: a spec without `root` runs
-- on the host's tree, and a root caller's spec without `host_uid` runs as
-- host uid 0.  The facade closes both unless the spec names the unsafe
-- choice, and every result of such a box lists it in `result.unsafe`:
--  * no `root`: a tmpfs root with `M.minimal_mounts()` (unless `mounts`
--    gives the tree); `root = "host"` runs on the host's tree ("root=host");
--  * a root caller: `host_uid`/`host_gid` default to the standard box's
--    unprivileged host id (`sbx.stdbox.root_host_id`, checked by
--    `sbx.stdbox.check_host_id`), one named alone stands for both;
--    `host_uid = 0` ("host_uid=0"), `host_gid = 0` ("host_gid=0");
--  * `drop_caps = false`, `no_new_privs = false` are listed as well.

-- Raises a misuse of function fname, with its first argument, at the
-- caller of the facade function (`level` frames up from here).
local function bad(fname, msg, level)
	error(("bad argument #1 to '%s' (%s)"):format(fname, msg), level or 4)
end

local function has(list, name)
	for _, v in ipairs(list) do
		if v == name then return true end
	end
	return false
end

-- The default host id of a root caller's box, checked (at most once a
-- second: `sbx._hostid.checked`); nil, and the reason in default_why,
-- when the check fails.
local default_why
local function default_host_id()
	-- sbx.stdbox when loaded (an operator may have changed its id or its
	-- check), else the small module both come from
	local hostid = require "sbx._hostid"
	local box = package.loaded["sbx.stdbox"] or hostid
	local ok, why = hostid.checked(box.root_host_id, box.check_host_id)
	if not ok then
		default_why = why
		return nil
	end
	return box.root_host_id
end

-- The spec handed to the core (a copy: the caller's table is not changed)
-- and the list of the unsafe choices it names; raises on misuse.
local function prepare(spec, fname)
	if type(spec) ~= "table" then bad(fname, ("table expected, got %s"):format(type(spec))) end
	local s, unsafe = {}, {}
	for k, v in pairs(spec) do s[k] = v end
	local be = s.backend
	s.backend = nil
	if be == "process" then
		-- no namespace at all (sbx.backend.process): nothing to mount,
		-- name or map, the host's tree under Landlock
		for _, k in ipairs { "mounts", "hostname", "sysctl", "uid", "gid", "net_lo", "uptime", "init" } do
			if s[k] ~= nil then bad(fname, ("the process backend has no %s"):format(k)) end
		end
		if s.root ~= nil and s.root ~= "host" then bad(fname, "the process backend has no root of its own") end
		if s.namespaces ~= nil and next(s.namespaces) ~= nil then
			bad(fname, "the process backend has no namespaces")
		end
		s.namespaces, s.root = {}, "host"
		if core.ids().euid == 0 and s.host_uid == nil then s.host_uid = 0 end
		-- without a user namespace only a root caller can empty its
		-- bounding set (sbx.backend.process)
		if core.ids().euid ~= 0 and s.drop_caps == nil then s.drop_caps = false end
	elseif be ~= nil and be ~= "ns" then
		bad(fname, ("field 'backend' must be 'ns' or 'process' (%s: sbx.backend)"):format(tostring(be)))
	end
	local ns = s.namespaces
	if ns ~= nil and type(ns) ~= "table" then bad(fname, "field 'namespaces' must be a list of names") end
	if s.root == "host" then
		s.root = nil
		unsafe[#unsafe + 1] = "root=host"
	elseif s.root == nil then
		if ns and not has(ns, "mount") then
			bad(fname, "the default tree needs the mount namespace"
				.. " (root = \"host\" runs on the host's tree)")
		end
		s.root = {}
		if s.mounts == nil then s.mounts = M.minimal_mounts() end
	elseif type(s.root) ~= "table" then
		bad(fname, "field 'root' must be a table or \"host\"")
	end
	if core.ids().euid == 0 then
		if ns and not has(ns, "user") and s.host_uid ~= 0 then
			bad(fname, "without the user namespace a root caller's box runs as host uid 0"
				.. " (add \"user\", or name host_uid = 0)")
		end
		-- one id named stands for both (never the caller's gid 0 by
		-- default); none named: the standard box's id, checked now
		if s.host_uid ~= nil and s.host_gid == nil then
			s.host_gid = s.host_uid
		elseif s.host_gid ~= nil and s.host_uid == nil then
			s.host_uid = s.host_gid
		elseif s.host_uid == nil and (ns == nil or has(ns, "user")) then
			local id = default_host_id()
			if not id then bad(fname, default_why) end
			s.host_uid, s.host_gid = id, id
		end
		if s.host_uid == 0 then unsafe[#unsafe + 1] = "host_uid=0" end
		if s.host_gid == 0 then unsafe[#unsafe + 1] = "host_gid=0" end
	end
	if s.drop_caps == false then unsafe[#unsafe + 1] = "drop_caps=false" end
	if s.no_new_privs == false then unsafe[#unsafe + 1] = "no_new_privs=false" end
	return s, unsafe
end

-- Completes a core result: the unsafe choices of its spec, and the
-- working directory a failed chdir names (as the box sees it).
local function finish(r, unsafe, cwd)
	if #unsafe > 0 then
		local u = {}
		for i, v in ipairs(unsafe) do u[i] = v end
		r.unsafe = u
	end
	local c = r.cannot
	if c and c.stage == "enter working directory" and c.path == nil then c.path = cwd end
	return r
end

-- A box of the facade: the core's box, and what its spec named unsafe.
local Box = { __name = "sbx.box" }
Box.__index = Box

--- Runs the box once (it can run again).
-- @return result table (with `unsafe` when the spec named an unsafe
-- choice), or nil, msg, errno
function Box:run()
	if getmetatable(self) ~= Box then
		error(("bad argument #1 to 'run' (sbx.box expected, got %s)"):format(type(self)), 2)
	end
	local r, msg, err = self.core:run()
	if not r then return nil, msg, err end
	return finish(r, self.unsafe, self.cwd)
end

--- Closes the box (idempotent; also `__close`).
function Box:close()
	self.core:close()
end
Box.__close = Box.close

function Box:__tostring()
	return tostring(self.core)
end

-- A facade box from a spec prepared by `prepare`.
local function new_box(spec, unsafe)
	local b, msg, err, field = core.box(spec)
	if not b then return nil, msg, err, field end
	return setmetatable({ core = b, unsafe = unsafe, cwd = spec.cwd or "/" }, Box)
end

--- Compiles a box spec (see docs/lua-api.md) into a box object, with the
-- safe defaults above (`sbx.core.box` takes the spec as it is).
-- @tparam table spec
-- @return box (`:run()`, `:close()`, `.unsafe`, `.core` the core's box),
-- or nil, msg, errno when a host path cannot be resolved
function M.box(spec)
	return new_box(prepare(spec, "box"))
end

--- Builds a box from spec and runs it once.
-- @tparam table spec
-- @return result table, or nil, msg, errno (and the spec's field the
-- failure concerns, `"cgroup"` for a named base that does not work)
function M.run(spec)
	local b, msg, err, field = new_box(prepare(spec, "run"))
	if not b then return nil, msg, err, field end
	local r, rmsg, rerr = b:run()
	b:close()
	return r, rmsg, rerr
end

-- the reason of a raised misuse, without its "bad argument" frame
local function reason(e)
	e = tostring(e)
	e = e:match("^[^:\n]+:%d+: (.*)$") or e
	return e:match("^bad argument #1 to '[%w_]+' %((.*)%)$") or e
end

--- Runs several specs at once under one supervisor loop.  A spec that
-- cannot run (misused, a host path that cannot be opened, a stdin file
-- closed or not copied) does not stop the others: its entry is an error.
-- @tparam {table,...} specs 1 to 64
-- @return a list in the order of specs: each a result, or `{outcome =
-- "error", index = i, error = "spec i: why", errno = n}` (errno when the
-- system said it)
function M.run_many(specs)
	if type(specs) ~= "table" then bad("run_many", ("table expected, got %s"):format(type(specs)), 3) end
	local n = #specs
	if n < 1 or n > 64 then bad("run_many", "between 1 and 64 specs", 3) end
	local out, boxes, at = {}, {}, {}
	local function failed(i, msg, err)
		out[i] = { outcome = "error", index = i, error = ("spec %d: %s"):format(i, msg), errno = err }
	end
	for i = 1, n do
		local ok, b, msg, err = pcall(function() return new_box(prepare(specs[i], "run_many")) end)
		if not ok then
			failed(i, reason(b))
		elseif not b then
			failed(i, msg, err)
		else
			boxes[#boxes + 1], at[#at + 1] = b, i
		end
	end
	if #boxes > 0 then
		local cores = {}
		for j, b in ipairs(boxes) do cores[j] = b.core end
		local rs, msg, err = core.run_many(cores)
		for j, b in ipairs(boxes) do
			local r = rs and rs[j]
			if not r then
				failed(at[j], msg, err)
			elseif r.outcome == "error" then
				failed(at[j], r.error, r.errno)
			else
				out[at[j]] = finish(r, b.unsafe, b.cwd)
			end
			b:close()
		end
	end
	return out
end

-- A pool of the facade: the core's pool, and each running box's facade
-- box by token (its unsafe choices and cwd complete the result).
local Pool = { __name = "sbx.pool" }
Pool.__index = Pool

local function check_pool(self, fname)
	if getmetatable(self) ~= Pool then
		error(("bad argument #1 to '%s' (sbx.pool expected, got %s)"):format(fname, type(self)), 3)
	end
end

--- Starts a box from spec, beside those running.
-- @tparam table spec a box spec (as `sbx.run`), without a terminal
-- @return token (an integer, increasing), or nil, msg, errno when the spec
-- cannot run (a host path that cannot be opened, a stdin not copied)
function Pool:start(spec)
	check_pool(self, "start")
	if self.closed then error("attempt to use a closed pool", 2) end
	local b, msg, err = new_box(prepare(spec, "start"))
	if not b then return nil, msg, err end
	local token
	token, msg, err = self.core:start(b.core)
	if not token then
		b:close()
		return nil, msg, err
	end
	self.boxes[token] = b
	return token
end

--- Waits for the first running box to end.
-- @return token, result; or nil when no box runs
function Pool:wait()
	check_pool(self, "wait")
	local token, r = self.core:wait()
	if not token then return nil end
	local b = self.boxes[token]
	self.boxes[token] = nil
	b:close()
	return token, finish(r, b.unsafe, b.cwd)
end

--- How many boxes run (started, not yet waited for).
function Pool:running()
	check_pool(self, "running")
	return self.core:running()
end

--- Kills and reaps every box still running (idempotent; also `__close`);
-- a closed pool starts no box.  A box's rule runs inside `wait`: a start,
-- wait or close of the pool it calls raises.
function Pool:close()
	check_pool(self, "close")
	self.core:close()
	self.closed = true
	for token, b in pairs(self.boxes) do
		b:close()
		self.boxes[token] = nil
	end
end
Pool.__close = Pool.close

function Pool:__tostring()
	return tostring(self.core)
end

--- A pool: boxes started one at a time (at most 64 at once) under one
-- supervisor, each given back as it ends, so that the next starts while
-- the others run (a batch).  A SIGINT during `wait` stops every box of
-- the pool (their results say `interrupted`); one between two waits is
-- the interpreter's (close the pool: a to-be-closed variable does).
-- @return pool (`:start(spec)`, `:wait()`, `:running()`, `:close()`)
function M.pool()
	return setmetatable({ core = core.pool(), boxes = {} }, Pool)
end

--- The mount list of a minimal tree: a read-only `/usr` with the
-- merged-usr links, `/proc`, a minimal `/dev` and a writable `/tmp`.
-- @tparam[opt] table opts `tmp_size` (bytes, default 64 MiB)
-- @treturn table list of mount entries for `spec.mounts`
function M.minimal_mounts(opts)
	opts = opts or {}
	return {
		{ type = "bind", src = "/usr" },
		{ type = "symlink", target = "usr/bin", dst = "/bin" },
		{ type = "symlink", target = "usr/sbin", dst = "/sbin" },
		{ type = "symlink", target = "usr/lib", dst = "/lib" },
		{ type = "symlink", target = "usr/lib64", dst = "/lib64" },
		{ type = "proc", dst = "/proc" },
		{ type = "dev", dst = "/dev" },
		{ type = "tmpfs", dst = "/tmp", mode = tonumber("1777", 8),
		  size = opts.tmp_size or 64 << 20 },
	}
end

--- Names of the namespaces a spec can ask for.
M.namespaces = core.namespaces
--- The caller's (or a pid's) namespace identities, as /proc/*/ns shows them.
M.ns_ids = core.ns_ids
--- The caller's capability sets as text.
M.caps = core.caps
--- The running kernel's Landlock ABI (0: none) and its handled rights.
M.landlock_abi = core.landlock_abi
--- Compiles a seccomp filter (see docs/seccomp.md).
M.filter = core.filter
--- A file's type by libmagic from its first 64 KiB, in memory: a string's
-- bytes, an `sbx.file`'s or a descriptor's (read from its start, never by
-- a name); returns the description and the MIME type, or nil, msg, errno.
M.filetype = core.filetype
--- The caller's ids: { uid, euid, gid, egid }.
M.ids = core.ids
--- Host path queries (nil, msg, errno on failure).
M.realpath = core.realpath
M.lstat = core.lstat
M.access = core.access
--- Clears set-id bits of the files in a host directory, walking it by
-- descriptor (see `sbx.setid` and docs/lua-api.md).
M.clear_setid = core.clear_setid
--- Lists the unix sockets under a host directory, by the same walk
-- (see `sbx.stdbox` and docs/lua-api.md).
M.find_sockets = core.find_sockets
--- Whether a descriptor is a terminal.
M.isatty = core.isatty
--- Where a box cgroup v2 could live here, and why not (docs/limits.md).
M.cgroup_probe = core.cgroup_probe
--- A host file opened for reading, once: no symlink on its path followed,
-- a regular file only (an `sbx.file`; a box spec's `stdin` takes it).
-- @return file, or nil, msg, errno
M.open_file = core.open_file
--- The caller's own stdin as an `sbx.file` read in sequence (a copy of
-- descriptor 0, relayed to a box through a pipe, never handed over).
M.stdin = core.stdin
--- A copy of the caller's descriptor n (`sbx.file`, a stream with
-- `:write(data)`), taken before any box exists; no box holds it.
M.descriptor = core.descriptor
--- A host directory, opened without following any symlink on its path:
-- an `sbx.dir` with `:check(name)`, `:write(name, data)`, `:close()`.
M.open_dir = core.open_dir

-- An output file of the supervisor: the directory opened now, the file
-- written later through that descriptor (core/api/file.c says why).
local Output = { __name = "sbx.output" }
Output.__index = Output

--- Writes the output file: a regular file replacing whatever regular file
-- is there; anything else there (a symlink, a directory, a FIFO...) is left
-- as it is and refused.  With how `"excl"`, anything there is refused
-- (EEXIST), a regular file too, up to the final rename.
-- @tparam string data
-- @tparam[opt] string how `"replace"` (the default) or `"excl"`
-- @return true, or nil, msg, errno
function Output:write(data, how)
	return self.dir:write(self.name, data, how)
end

--- Closes the directory (idempotent; also `__close`).
function Output:close()
	self.dir:close()
end
Output.__close = Output.close

function Output:__tostring()
	return ("sbx.output (%s)"):format(self.path)
end

--- Prepares an output file of the supervisor, before any box exists.
-- Opens the directory of `path` (no symlink on the way is followed) and
-- checks that its last component is absent or a regular file and that the
-- directory is writable.  A box that writes that directory later can make
-- `:write` refuse, never redirect it.
-- @tparam string path
-- @return an output object (`path`, `:write(data)`, `:close()`), or nil,
-- msg, errno
function M.output(path)
	argcheck(path, "string", 1, "output")
	local dir, name = path:match("^(.*)/([^/]*)$")
	if not dir then
		dir, name = ".", path
	elseif dir == "" then
		dir = "/"
	end
	if name == "" or name == "." or name == ".." then
		return nil, ("open %s: names a directory, not a file"):format(path), core.errno.EISDIR
	end
	if path:find("\0", 1, true) then
		return nil, ("open %s: a NUL byte in the name"):format(path), core.errno.EINVAL
	end
	if #name > 255 then -- NAME_MAX
		return nil, ("open %s: file name too long"):format(path), core.errno.ENAMETOOLONG
	end
	local d, msg, err = core.open_dir(dir)
	if not d then return nil, msg, err end
	local ok, cmsg, cerr = d:check(name)
	if not ok then
		d:close()
		return nil, cmsg, cerr
	end
	return setmetatable({ path = path, dir = d, name = name }, Output)
end

return M
