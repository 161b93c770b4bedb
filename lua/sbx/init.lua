--- sbx: the Lua facade of sbxlua.
-- Scripts and operators use this module; only `lua/sbx/*.lua` reach into
-- the C core `sbx.core`.  The core has mechanism and no policy: the standard
-- box, profiles, the report and verdicts are Lua modules beside this one.
-- @module sbx
local core = require "sbx.core"

local M = {}

M.version = core.version
--- Errno numbers by name (`sbx.errno.EPERM`).
M.errno = core.errno
--- Signal numbers by name (`sbx.signal.SIGKILL`).
M.signal = core.signal

--- Compiles a box spec (see docs/lua-api.md) into a box object.
-- @tparam table spec
-- @return box, or nil, msg, errno when a host path cannot be resolved
function M.box(spec)
	return core.box(spec)
end

--- Builds a box from spec and runs it once.
-- @tparam table spec
-- @return result table, or nil, msg, errno
function M.run(spec)
	local b, msg, err = core.box(spec)
	if not b then return nil, msg, err end
	local r, rmsg, rerr = b:run()
	b:close()
	return r, rmsg, rerr
end

--- Runs several specs at once under one supervisor loop.
-- @tparam {table,...} specs at most 64
-- @return list of results (same order), or nil, msg, errno
function M.run_many(specs)
	local boxes = {}
	for i, spec in ipairs(specs) do
		local b, msg, err = core.box(spec)
		if not b then return nil, ("spec %d: %s"):format(i, msg), err end
		boxes[i] = b
	end
	return core.run_many(boxes)
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
-- (see `sbx.box` and docs/lua-api.md).
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
--- A host directory, opened without following any symlink on its path:
-- an `sbx.dir` with `:check(name)`, `:write(name, data)`, `:close()`.
M.open_dir = core.open_dir

-- An output file of the supervisor: the directory opened now, the file
-- written later through that descriptor (core/file.c says why).
local Output = { __name = "sbx.output" }
Output.__index = Output

--- Writes the output file: a regular file replacing whatever regular file
-- is there; anything else there (a symlink, a directory, a FIFO...) is left
-- as it is and refused.
-- @tparam string data
-- @return true, or nil, msg, errno
function Output:write(data)
	return self.dir:write(self.name, data)
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
	if type(path) ~= "string" then
		error(("bad argument #1 to 'output' (string expected, got %s)"):format(type(path)), 2)
	end
	local dir, name = path:match("^(.*)/([^/]*)$")
	if not dir then
		dir, name = ".", path
	elseif dir == "" then
		dir = "/"
	end
	if name == "" or name == "." or name == ".." then
		return nil, ("open %s: names a directory, not a file"):format(path), core.errno.EISDIR
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
