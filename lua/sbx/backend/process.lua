-- SPDX-License-Identifier: MIT
--- The process backend: the standard box's program, limits and filters,
-- with no namespace.  For a host that forbids user namespaces, chosen by
-- name (`--backend process`), never by sbxlua on its own.
--
-- What it keeps from the namespace box (through the same core, given a
-- spec with no namespace): the resource limits (rlimits, the sampler, a
-- cgroup v2 where one is usable), a new session, every capability dropped,
-- no_new_privs, the seccomp profile, Landlock where the kernel has it
-- (read-only system directories, a private working directory the only
-- writable place, TCP refused, signals and abstract sockets scoped), an
-- exact environment.  What it does not give (docs/backends.md): a private
-- tree, a pid namespace, an empty network, a private hostname or IPC, an
-- id of its own (it runs as the caller, a root caller as uid 0 without
-- capabilities).  The report's first line says so.
-- @module sbx.backend.process
local core = require "sbx.core"
local shell = require "sbx._shell"
local stdbox = require "sbx.stdbox"

local M = {}

--- The first line of every report of this backend.
M.LINE = "isolation: none (process backend: limits and filters only)"

--- Host files of /etc the program may read (everything else of /etc is
-- refused by Landlock).
M.etc = { "/etc/ld.so.cache", "/etc/localtime", "/etc/nsswitch.conf", "/etc/passwd",
	"/etc/group", "/etc/hosts" }

--- Devices the program may open.
M.dev = { "/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom" }

--- Where private working directories are made.
M.tmpdir = "/tmp"

-- A new private directory (mode 0700) under M.tmpdir: its path, or nil, msg.
local function private_dir()
	local p = shell.private_dir(M.tmpdir, "process")
	if not p then return nil, "cannot make a private working directory under " .. M.tmpdir end
	return p
end

-- The capability sets other than the bounding set that are not empty in
-- the caller, as "CapPrm CapAmb..." text; nil when it holds none.
local function held_caps()
	local f = io.open("/proc/self/status")
	if not f then return "unreadable /proc/self/status" end
	local held = {}
	for l in f:lines() do
		local set, v = l:match("^(Cap%a%a%a):%s*(%x+)")
		if set and set ~= "CapBnd" and tonumber(v, 16) ~= 0 then held[#held + 1] = set end
	end
	f:close()
	return #held > 0 and table.concat(held, " ") or nil
end

-- The Landlock rules that stand for the standard box's tree, and the
-- read-only roots they claim.
local function landlock_rules(o, dir, prog)
	local ll, ro = {}, {}
	local function rule(path, access, optional)
		ll[#ll + 1] = { path = path, access = access, optional = optional or nil }
	end
	for _, d in ipairs { "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32" } do
		local st = core.lstat(d)
		if st and st.type == "dir" then
			rule(d, "ro")
			ro[#ro + 1] = d
		end
	end
	for _, f in ipairs(M.etc) do rule(f, { "read_file" }, true) end
	rule("/proc", "ro")
	for _, f in ipairs(M.dev) do rule(f, { "read_file", "write_file" }, true) end
	rule(dir, "rw")
	for _, b in ipairs(o.ro or {}) do
		rule(b.src, "ro")
		ro[#ro + 1] = b.src
	end
	for _, b in ipairs(o.rw or {}) do rule(b.src, "rw") end
	if prog:sub(1, 5) ~= "/usr/" then
		rule(prog, "ro")
		ro[#ro + 1] = prog
	end
	return ll, ro
end

-- The spec: the standard box's (base) limits, filter, environment and
-- program, with no namespace, in the private directory dir.
local function process_spec(o, base, dir, prog, ll, root_caller)
	local env = {}
	for k, v in pairs(base.env) do env[k] = v end
	env.HOME = dir
	local argv = { base.argv[1] }
	if argv[1]:sub(1, 1) == "/" then argv[1] = prog end
	for i = 2, #base.argv do argv[i] = base.argv[i] end
	-- RLIMIT_NPROC counts every process of the caller's uid on the host
	-- (no user namespace of the box's own): the sampler or the cgroup
	-- holds the task limit alone, the caller's hard limit behind it
	local rl = {}
	for k, v in pairs(base.rlimits) do rl[k] = v end
	local h = stdbox.caller_hard().nproc or "unlimited"
	rl.nproc = { h, h }
	local abi = core.landlock_abi()
	return {
		namespaces = {},
		root = "host",
		-- without a user namespace the core cannot change ids: a root
		-- caller's program runs as uid 0 with no capability (the facade
		-- lists it in `unsafe`)
		host_uid = root_caller and 0 or nil,
		drop_caps = root_caller,
		argv = argv, path = prog,
		env = env,
		cwd = o.cwd or dir,
		rlimits = rl,
		filter = base.filter,
		mode = base.mode, rule = base.rule, notify = base.notify,
		landlock = abi > 0 and o.landlock ~= false and { rules = ll, net = true, scoped = true } or nil,
		stdin = base.stdin, pty = base.pty, tty_raw = base.tty_raw,
		stdout = base.stdout, stderr = base.stderr,
		output_limit = base.output_limit,
		wall = base.wall,
		memory_limit = base.memory_limit,
		memory_backstop = base.memory_backstop,
		task_limit = base.task_limit,
		cpu_limit = base.cpu_limit,
		cgroup = base.cgroup,
		probe = true,
	}, abi
end

--- Builds the process backend's spec from the options of `sbx.stdbox.build`.
-- Binds cannot move a path without a mount namespace: `ro`/`rw` entries
-- must name their own path (DEST = PATH) and become Landlock rules;
-- `socket` and `tmp` entries are refused (`sbx.backend.registry`).
-- @return spec, info; or nil, msg
function M.build(o)
	-- the standard box's limits, filter, environment and program
	local base, info, bopt = stdbox.build(o)
	if not base then return nil, info, bopt end
	local prog = stdbox.find_program(o.prog)
	local root_caller = core.ids().euid == 0
	-- an unprivileged caller cannot empty its bounding set without a
	-- user namespace (PR_CAPBSET_DROP needs CAP_SETPCAP): it must hold no
	-- capability at all, and no_new_privs keeps it from gaining one
	local held = not root_caller and held_caps()
	if held then return nil, ("the caller holds capabilities (%s): the process backend cannot drop them"
		.. " without a user namespace"):format(held) end
	local dir, derr = private_dir()
	if not dir then return nil, derr end
	local ll, ro = landlock_rules(o, dir, prog)
	local spec, abi = process_spec(o, base, dir, prog, ll, root_caller)
	info.backend = "process"
	info.kind = "process"
	info.namespaces = {}
	info.network = "host"
	info.host_root = root_caller
	info.landlock = spec.landlock ~= nil
	info.landlock_abi = spec.landlock and abi or 0
	info.ro_roots = ro
	info.program = prog
	info.private_dir = dir
	info.first_line = M.LINE
	info.claims = { private_root = false, read_only_root = false,
		-- an unprivileged caller's bounding set stays (see above)
		capabilities_dropped = root_caller }
	-- the digest names the environment, not this run's directory
	local denv = {}
	for k, v in pairs(spec.env) do denv[k] = v end
	denv.HOME = "(private working directory)"
	info.digest_env = denv
	return spec, info
end

--- Runs a spec of `M.build`, then removes its private working directory.
-- @return the core's result, or nil, msg, errno, field (as `sbx.run`)
function M.run(spec, info)
	local sbx = require "sbx"
	local r, msg, err, field = sbx.run(spec)
	if r then
		-- no tmpfs of the box's own, no user namespace for per-namespace limits
		for _, k in ipairs { "tmp", "inotify_instances", "inotify_watches" } do r.enforcement[k] = "none" end
	end
	shell.remove_dir(M.tmpdir, "process", info.private_dir)
	return r, msg, err, field
end

return M
