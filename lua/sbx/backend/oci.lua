-- SPDX-License-Identifier: MIT
--- The OCI backend: the standard box's spec written as an OCI runtime
-- bundle (config.json and a root directory) in a private temporary
-- directory and run by an OCI runtime from the host's packages (`runc`;
-- `crun` where it runs: it refuses a hybrid cgroup layout).  The runtime
-- runs under the core's supervision (wall clock, output, the sampler), as
-- the command of a box with no namespace of its own; the runtime makes the
-- container's namespaces.
--
-- The runtime's own record is read back: a `poststart` hook, which the
-- runtime runs after the container's process is set up and before it
-- execs the program (runc 1.1: the process waits on its exec fifo), copies
-- that process's `/proc` status, limits, mounts, network namespace and
-- cgroup files into the bundle.  Every property asked is compared with the
-- record; one recorded differently (or no record at all) is a line
-- `not as asked: ...` and exit 126: the run did not happen as promised.
-- After the run the container is deleted (`delete --force`), the runtime's
-- state directory checked empty (`list`) and the bundle removed.
-- @module sbx.backend.oci
local core = require "sbx.core"
local stdbox = require "sbx.stdbox"
local profile = require "sbx.profile"
local limits = require "sbx.limits"
local json = require "sbx.json"

local M = {}

--- Runtimes, in the order tried, and where they are looked for.
M.runtimes = { "runc", "crun" }
M.bin_dirs = { "/usr/sbin", "/usr/bin", "/sbin", "/bin" }

--- Where bundles are made.
-- the caller's TMPDIR when it is a plain absolute path (the bundle is made
-- there, 0700, by mktemp -d), else /tmp
M.tmpdir = (os.getenv("TMPDIR") or ""):match("^/[%w/._-]*[%w._-]$") or "/tmp"

-- JSON: sbx.json, the one encoder (an empty table is `[]`: every map of
-- a bundle's files has a key).
--- Encodes a Lua value as JSON (`sbx.json.encode`).
M.encode = json.encode

local shell = require "sbx._shell"
-- a host command: its stdout and whether it succeeded
local q, sh, read_file = shell.quote, shell.run, shell.read_file

-- The path of a runtime's executable, or nil.
local function find(name)
	for _, d in ipairs(M.bin_dirs) do
		local p = d .. "/" .. name
		if core.access(p, "x") then return p end
	end
	return nil
end

--- The OCI runtime to use: `name` (runc or crun), else the first of
-- `M.runtimes` installed.  Whether it runs on this host is known only by
-- running it: a runtime that refuses the host says so in the run's report.
-- @tparam[opt] string name
-- @return `{name=, path=, version=}`, or nil, why
function M.runtime(name)
	for _, n in ipairs(name and { name } or M.runtimes) do
		local p = find(n)
		if p then
			local v = sh(q(p) .. " --version 2>/dev/null"):match("version (%S+)") or "unknown"
			return { name = n, path = p, version = v }
		end
	end
	return nil, name and (name .. " is not installed") or "no OCI runtime is installed (runc, crun)"
end

-- rlimit names of a core spec, as OCI names them
local function rlimit_type(name) return "RLIMIT_" .. name:upper() end

-- the comparison operators of sbx.core.filter, as OCI names them
local ops = { ["=="] = "SCMP_CMP_EQ", ["!="] = "SCMP_CMP_NE", ["<"] = "SCMP_CMP_LT",
	["<="] = "SCMP_CMP_LE", [">"] = "SCMP_CMP_GT", [">="] = "SCMP_CMP_GE", ["&=="] = "SCMP_CMP_MASKED_EQ" }

local function action(a)
	if a == "allow" then return "SCMP_ACT_ALLOW" end
	if a == "kill" or a == "kill_process" then return "SCMP_ACT_KILL_PROCESS" end
	if a == "kill_thread" then return "SCMP_ACT_KILL_THREAD" end
	if a == "trap" then return "SCMP_ACT_TRAP" end
	if a == "log" then return "SCMP_ACT_LOG" end
	if type(a) == "table" and a.errno then
		local n = type(a.errno) == "number" and a.errno or core.errno[a.errno]
		if not n then return nil, "unknown errno " .. tostring(a.errno) end
		return "SCMP_ACT_ERRNO", n
	end
	return nil, "an action OCI cannot express: " .. tostring(type(a) == "table" and next(a) or a)
end

--- The seccomp profile `prof` (a `sbx.core.filter` spec table, see
-- docs/seccomp.md) as OCI's `linux.seccomp`: the default action, x86-64
-- only, one `syscalls` entry per rule (its comparisons ANDed, entries of
-- one call alternatives, as in the profile).  `"&=="` with a mask is
-- `SCMP_CMP_MASKED_EQ` with the mask as `value` and the datum as
-- `valueTwo`.  A notification or an action OCI lacks is refused.
-- @return the table, or nil, why
function M.seccomp(prof)
	local def, derr = action(prof.default)
	if not def then return nil, "default: " .. derr end
	local out = { defaultAction = def, architectures = { "SCMP_ARCH_X86_64" }, syscalls = {} }
	for i, r in ipairs(prof.rules or {}) do
		local act, errno = action(r.action)
		if not act then return nil, ("rules[%d]: %s"):format(i, errno) end
		local args = {}
		for _, c in ipairs(r.args or {}) do
			local op = ops[c[2]]
			if not op then return nil, ("rules[%d]: operator %s"):format(i, tostring(c[2])) end
			if c[2] == "&==" then
				args[#args + 1] = { index = c[1], value = c[4], valueTwo = c[3], op = op }
			else
				args[#args + 1] = { index = c[1], value = c[3], valueTwo = 0, op = op }
			end
		end
		out.syscalls[#out.syscalls + 1] = { names = { r.call }, action = act, errnoRet = errno,
			args = #args > 0 and args or nil }
	end
	return out
end

-- The tmpfs options of a mount entry of a core spec.
local function tmpfs_options(m, extra, owner)
	local o = { "nosuid", "nodev" }
	for _, x in ipairs(extra or {}) do o[#o + 1] = x end
	-- owned by the box's user, as the namespace box's are
	if owner then
		o[#o + 1] = ("uid=%d"):format(owner.uid)
		o[#o + 1] = ("gid=%d"):format(owner.gid)
	end
	if m.size then o[#o + 1] = ("size=%d"):format(m.size) end
	if m.nr_inodes then o[#o + 1] = ("nr_inodes=%d"):format(m.nr_inodes) end
	if m.mode then o[#o + 1] = ("mode=%o"):format(m.mode) end
	return o
end

-- Makes the mount point dst (a file when file is true) in the bundle's
-- root.  Every mount point exists before the runtime runs: the container's
-- root (a host id of its own) cannot create them in the bundle.
local function mount_point(bundle, dst, file, mode)
	local p = bundle .. "/rootfs" .. dst
	os.execute(("mkdir -p %s"):format(q(file and p:match("^(.*)/[^/]*$") or p)))
	if file then os.execute(("touch %s"):format(q(p))) end
	-- runc gives a tmpfs the mode of the directory it covers
	if mode then os.execute(("chmod %o %s"):format(mode, q(p))) end
end

-- The OCI mounts of a "dev" entry: the runtime makes its standard devices
-- in a /dev tmpfs; a devpts and the /dev/shm tmpfs the entry sizes.
local function dev_mounts(m, owner)
	return { destination = "/dev", type = "tmpfs", source = "tmpfs",
			options = { "nosuid", "strictatime", "mode=755", "size=65536k" } },
		{ destination = "/dev/pts", type = "devpts", source = "devpts",
			options = { "nosuid", "noexec", "newinstance", "ptmxmode=0666", "mode=0620" } },
		{ destination = "/dev/shm", type = "tmpfs", source = "shm",
			options = tmpfs_options({ size = m.shm_size, nr_inodes = m.shm_inodes, mode = tonumber("1777", 8) },
				{ "noexec" }, owner) }
end

-- The OCI mounts, masked and read-only paths of a core spec's mounts;
-- files and symlinks are made in the bundle.  Returns mounts, masked,
-- readonly; or nil, why.
local function translate_mounts(spec, bundle, owner)
	local mounts, masked, readonly = {}, {}, {}
	local nfile = 0
	local function point(dst, file, mode) mount_point(bundle, dst, file, mode) end
	for _, m in ipairs(spec.mounts) do
		local t = m.type
		if t == "bind" then
			local src = m.src
			if core.lstat(src) or not m.optional then
				local o = { "rbind", "nosuid", "nodev" }
				if not m.rw then o[#o + 1] = "ro" end
				local st = core.lstat(src)
				point(m.dst or src, st and st.type ~= "dir")
				mounts[#mounts + 1] = { destination = m.dst or src, type = "bind", source = src, options = o }
			end
		elseif t == "symlink" then
			point(m.dst:match("^(.*)/[^/]*$"))
			local ok = os.execute(("ln -s %s %s"):format(q(m.target), q(bundle .. "/rootfs" .. m.dst)))
			if not ok then return nil, "cannot make the symlink " .. m.dst end
		elseif t == "file" then
			nfile = nfile + 1
			local p = ("%s/files/%d"):format(bundle, nfile)
			local ok, msg = shell.write_file(p, m.data, m.mode or 420)
			if not ok then return nil, msg end
			point(m.dst, true)
			mounts[#mounts + 1] = { destination = m.dst, type = "bind", source = p,
				options = { "bind", "ro", "nosuid", "nodev", "noexec" } }
		elseif t == "proc" then
			point(m.dst)
			mounts[#mounts + 1] = { destination = m.dst, type = "proc", source = "proc",
				options = { "nosuid", "nodev", "noexec" } }
		elseif t == "remount" then
			readonly[#readonly + 1] = m.dst
		elseif t == "hide" then
			masked[#masked + 1] = m.dst
		elseif t == "dev" then
			point("/dev")
			for _, d in ipairs({ dev_mounts(m, owner) }) do mounts[#mounts + 1] = d end
		elseif t == "sysnet" then -- luacheck: ignore 542
			-- no OCI mount gives a sysfs's network devices alone (a
			-- sysfs mount is the host's device list): no /sys/class/net
		elseif t == "tmpfs" then
			point(m.dst, false, m.mode)
			mounts[#mounts + 1] = { destination = m.dst, type = "tmpfs", source = "tmpfs",
				options = tmpfs_options(m, nil, owner) }
		else
			return nil, "a mount OCI cannot express: " .. tostring(t)
		end
	end
	return mounts, masked, readonly
end

-- The poststart hook: the runtime's record of the container's process,
-- read after its set-up and before its execve.  $1 is the record's
-- directory; the runtime's state (JSON) is on stdin.
local HOOK = [[
pid=$(tr -d '\n' | sed -n 's/.*"pid": *\([0-9][0-9]*\).*/\1/p')
[ -n "$pid" ] || exit 1
d=$1
cat /proc/$pid/status > $d/status
cat /proc/$pid/limits > $d/limits
cat /proc/$pid/mountinfo > $d/mountinfo
cat /proc/$pid/cgroup > $d/cgroup
readlink /proc/$pid/ns/net > $d/net
for n in user mnt pid ipc uts cgroup net; do readlink /proc/$pid/ns/$n; done > $d/ns
m=$(sed -n 's/^[0-9]*:memory:\(.*\)$/\1/p' /proc/$pid/cgroup)
[ -n "$m" ] && cat /sys/fs/cgroup/memory$m/memory.limit_in_bytes > $d/memory.limit 2>/dev/null
p=$(sed -n 's/^[0-9]*:pids:\(.*\)$/\1/p' /proc/$pid/cgroup)
[ -n "$p" ] && cat /sys/fs/cgroup/pids$p/pids.max > $d/pids.max 2>/dev/null
echo done > $d/complete
]]

-- A new private directory under M.tmpdir (mode 0700), or nil, why.
local function private_dir()
	local p = shell.private_dir(M.tmpdir, "oci")
	if not p then return nil, "cannot make a bundle directory under " .. M.tmpdir end
	return p
end

local function remove_dir(p) shell.remove_dir(M.tmpdir, "oci", p) end

-- The profile of the box's claims as OCI seccomp rules: false for none.
-- @return the rules or false; or nil, msg
local function oci_seccomp(info)
	if info.profile == "none" then return false end
	local prof, perr = profile.load(info.profile)
	if prof == nil then return nil, perr end
	if not prof then return false end
	local seccomp, serr = M.seccomp(prof)
	if not seccomp then return nil, "profile " .. info.profile .. ": " .. serr end
	return seccomp
end

-- How many ids a root caller's container maps, from its host id on.
local MAPPED = 65536

-- The container's ids: a user namespace always; a root caller's maps
-- 0..65535 onto the standard box's host id and up, an unprivileged
-- caller's (rootless) maps the box's user onto the caller alone.
local function id_maps(rootless, euid, host_id)
	if rootless then
		-- runc needs the container's uid 0 mapped, and a caller with no
		-- subordinate ids has one id to map: the program is the
		-- container's uid 0 (the caller on the host), with no capability
		return { { containerID = 0, hostID = euid, size = 1 } },
			{ { containerID = 0, hostID = core.ids().egid, size = 1 } }
	end
	return { { containerID = 0, hostID = host_id, size = MAPPED } },
		{ { containerID = 0, hostID = host_id, size = MAPPED } }
end

--- The standard box's resource limits as a runtime is asked to set them,
-- sorted by name: `{ type = "RLIMIT_NAME", soft =, hard = }` for each
-- finite one (the memory backstop as RLIMIT_DATA set in base first), an
-- unlimited one left out ("unlimited" is not written: JSON integers here
-- stop at 2^63).  The OCI bundle's process.rlimits, podman's --ulimit, and
-- the list `M.compare` checks against the runtime's record.
function M.rlimits(base, info)
	base.rlimits.data = limits.memory_backstop(info.limits)
	local out = {}
	for _, k in ipairs(json.sorted_keys(base.rlimits)) do
		local v = base.rlimits[k]
		local soft, hard = v, v
		if type(v) == "table" then soft, hard = v[1], v[2] end
		if math.type(soft) == "integer" and math.type(hard) == "integer" then
			out[#out + 1] = { type = rlimit_type(k), soft = soft, hard = hard }
		end
	end
	return out
end

-- The standard box's rlimits as OCI's, by name; RLIMIT_DATA's backstop
-- always: whatever cgroup the runtime makes is not the core's, which
-- samples the runtime's processes.
local function oci_rlimits(base, info)
	local rlimits = {}
	for i, r in ipairs(M.rlimits(base, info)) do rlimits[i] = r end
	return rlimits
end

-- The bundle's config.json: the standard box (base) as an OCI container
-- `id` in `bundle`; c holds uid, gid, mounts, masked, readonly, uidmap,
-- gidmap, rlimits, seccomp, rootless.
local function oci_config(base, info, bundle, id, c)
	local env = {}
	for _, k in ipairs(json.sorted_keys(base.env)) do env[#env + 1] = k .. "=" .. base.env[k] end
	local namespaces = { { type = "user" }, { type = "mount" }, { type = "pid" },
		{ type = "ipc" }, { type = "uts" }, { type = "cgroup" } }
	if info.network ~= "host" then namespaces[#namespaces + 1] = { type = "network" } end
	local none = {}
	local config = {
		ociVersion = "1.0.2",
		process = {
			terminal = false,
			user = { uid = c.uid, gid = c.gid },
			args = base.argv,
			env = env,
			cwd = base.cwd,
			capabilities = { bounding = none, effective = none, inheritable = none, permitted = none,
				ambient = none },
			rlimits = c.rlimits,
			noNewPrivileges = true,
		},
		root = { path = "rootfs", readonly = true },
		hostname = base.hostname,
		mounts = c.mounts,
		hooks = { poststart = { { path = "/bin/sh",
			args = { "sh", "-c", HOOK, "sh", bundle .. "/record" }, timeout = 10 } } },
		linux = {
			namespaces = namespaces,
			uidMappings = c.uidmap,
			gidMappings = c.gidmap,
			maskedPaths = c.masked,
			readonlyPaths = c.readonly,
			seccomp = c.seccomp or nil,
		},
	}
	-- a rootless runtime has no cgroup of its own here: the sampler holds
	-- memory and tasks (runc refuses resources it cannot set)
	if not c.rootless then
		config.linux.cgroupsPath = "/" .. id
		config.linux.resources = { memory = { limit = info.limits.memory, swap = info.limits.memory },
			pids = { limit = info.limits.tasks } }
	end
	return config
end

-- The core spec that runs the runtime on the bundle.
local function runtime_spec(rt, bundle, state, id, base)
	return {
		backend = "process",
		argv = { rt.path, "--root", state, "run", "--bundle", bundle, id },
		env = { PATH = "/usr/sbin:/usr/bin:/sbin:/bin", XDG_RUNTIME_DIR = state },
		cwd = bundle,
		-- the runtime needs its capabilities; the container drops them
		drop_caps = false,
		no_new_privs = false,
		stdin = base.stdin, stdout = base.stdout, stderr = base.stderr,
		output_limit = base.output_limit, wall = base.wall,
		-- the runtime's processes and the container's, sampled
		memory_limit = base.memory_limit, task_limit = base.task_limit, cpu_limit = base.cpu_limit,
		cgroup = false,
	}
end

-- A new bundle directory with its parts.
local function new_bundle()
	local bundle, berr = private_dir()
	if not bundle then return nil, berr end
	for _, d in ipairs { "rootfs", "files", "record", "state" } do
		os.execute("mkdir -m 755 " .. q(bundle .. "/" .. d))
	end
	os.execute("chmod 755 " .. q(bundle))
	return bundle
end

--- Builds the OCI backend's run from the options of `sbx.stdbox.build`: the
-- standard box's spec, translated to a bundle.  `o.runtime` names the
-- runtime (default: the first installed of `M.runtimes`).
-- @return spec (the core spec that runs the runtime), info; or nil, msg
function M.build(o)
	local rt, rerr = M.runtime(o.runtime)
	if not rt then return nil, rerr end
	local base, info, opt = stdbox.build(o)
	if not base then return nil, info, opt end
	local seccomp, serr = oci_seccomp(info)
	if seccomp == nil then return nil, serr end
	local euid = core.ids().euid
	-- a root caller's container may run as any id it maps, not only the
	-- host id the standard box checked: each must be free on the host
	if euid == 0 and base.host_uid then
		local ok, why = stdbox.check_host_id(base.host_uid, MAPPED)
		if not ok then return nil, why end
	end
	local bundle, berr = new_bundle()
	if not bundle then return nil, berr end
	local c = { rootless = euid ~= 0, seccomp = seccomp, uid = stdbox.user.uid, gid = stdbox.user.gid }
	if c.rootless then c.uid, c.gid = 0, 0 end
	c.mounts, c.masked, c.readonly = translate_mounts(base, bundle, { uid = c.uid, gid = c.gid })
	if not c.mounts then
		remove_dir(bundle)
		return nil, c.masked
	end
	local host_id = base.host_uid or euid
	c.uidmap, c.gidmap = id_maps(c.rootless, euid, host_id)
	c.rlimits = oci_rlimits(base, info)
	local id = "sbxlua-" .. bundle:match("([%w]+)$"):lower()
	local ok, werr = shell.write_file(bundle .. "/config.json", M.encode(oci_config(base, info, bundle, id, c)) .. "\n", 420)
	if not ok then
		remove_dir(bundle)
		return nil, werr
	end
	local state = bundle .. "/state"
	local rootless, uid = c.rootless, c.uid
	info.backend = "oci"
	info.kind = "oci"
	info.runtime = rt
	info.bundle = bundle
	info.state = state
	info.container = id
	info.rootless = rootless
	info.landlock, info.landlock_abi = false, 0
	info.seccomp = seccomp ~= false
	info.seccomp_unread = true
	info.root_dir = true
	info.record_uid = rootless and euid or host_id + uid
	info.root_name = "the bundle's directory"
	info.first_line = ("isolation: oci (%s %s%s)"):format(rt.name, rt.version, rootless and ", rootless" or "")
	info.digest_extra = { "runtime=" .. rt.name, "rootless=" .. tostring(rootless) }
	info.asked = { uid = rootless and euid or host_id + uid, memory = not rootless and info.limits.memory or nil,
		tasks = not rootless and info.limits.tasks or nil, rlimits = c.rlimits,
		network = info.network ~= "host" }
	return runtime_spec(rt, bundle, state, id, base), info
end

-- /proc/PID/limits rows by OCI rlimit type
local limit_rows = {
	RLIMIT_CPU = "Max cpu time", RLIMIT_FSIZE = "Max file size", RLIMIT_DATA = "Max data size",
	RLIMIT_STACK = "Max stack size", RLIMIT_CORE = "Max core file size", RLIMIT_NPROC = "Max processes",
	RLIMIT_NOFILE = "Max open files", RLIMIT_MEMLOCK = "Max locked memory", RLIMIT_AS = "Max address space",
	RLIMIT_SIGPENDING = "Max pending signals", RLIMIT_MSGQUEUE = "Max msgqueue size",
	RLIMIT_NICE = "Max nice priority", RLIMIT_RTPRIO = "Max realtime priority",
	RLIMIT_RSS = "Max resident set", RLIMIT_LOCKS = "Max file locks", RLIMIT_RTTIME = "Max realtime timeout",
}

--- Compares what was asked with the runtime's record (the files the hook
-- wrote in `dir`): the list of properties recorded differently, each as
-- "<property>: asked <a>, recorded <b>" (empty: as asked).
-- @tparam table asked `info.asked`
-- @tparam string dir
-- @tparam string host_net the host's network namespace (`net:[...]`)
function M.compare(asked, dir, host_net)
	local bad = {}
	local function differ(what, a, b)
		bad[#bad + 1] = ("%s: asked %s, recorded %s"):format(what, tostring(a), tostring(b or "nothing"))
	end
	if not read_file(dir .. "/complete") then
		return { "runtime record: none (the container's process was not set up)" }
	end
	local status = read_file(dir .. "/status") or ""
	local uid = status:match("\nUid:%s*%d+%s+(%d+)")
	if tonumber(uid) ~= asked.uid then differ("uid", asked.uid, uid) end
	local nnp = status:match("\nNoNewPrivs:%s*(%d+)")
	if nnp ~= "1" then differ("no_new_privs", 1, nnp) end
	for _, set in ipairs { "CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb" } do
		local v = status:match("\n" .. set .. ":%s*(%x+)")
		if v ~= "0000000000000000" then differ("capabilities " .. set, "0000000000000000", v) end
	end
	local net = (read_file(dir .. "/net") or ""):match("^(%S+)")
	if asked.network and (not net or net == host_net) then differ("network namespace", "its own", net) end
	local ro
	for l in (read_file(dir .. "/mountinfo") or ""):gmatch("[^\n]+") do
		local mp, opts = l:match("^%d+ %d+ %S+ %S+ (%S+) (%S+)")
		if mp == "/" then ro = (opts .. ","):match("^ro,") ~= nil end
	end
	if not ro then differ("root", "read-only", ro == false and "writable" or nil) end
	local lim = read_file(dir .. "/limits") or ""
	for _, r in ipairs(asked.rlimits) do
		local row = limit_rows[r.type]
		local soft, hard
		if row then soft, hard = lim:match(row .. "%s+(%S+)%s+(%S+)") end
		if row and (not soft or tonumber(soft) ~= r.soft or tonumber(hard) ~= r.hard) then
			differ(r.type, ("%d/%d"):format(r.soft, r.hard), soft and (soft .. "/" .. (hard or "?")))
		end
	end
	if asked.memory then
		local m = (read_file(dir .. "/memory.limit") or ""):match("%d+")
		if tonumber(m) ~= asked.memory then differ("memory limit", asked.memory, m) end
	end
	if asked.tasks then
		local p = (read_file(dir .. "/pids.max") or ""):match("%S+")
		if tonumber(p) ~= asked.tasks then differ("task limit", asked.tasks, p) end
	end
	return bad
end

-- The containers the runtime's state directory still lists.
local function listed(rt, state)
	local out = sh(("%s --root %s list -q 2>/dev/null"):format(q(rt.path), q(state)))
	local ids = {}
	for l in out:gmatch("[^\n]+") do ids[#ids + 1] = l end
	return ids
end

--- Runs a spec of `M.build`: the runtime under the core's supervision,
-- then the record compared (`info.mismatches`), the container deleted,
-- the bundle removed.
-- @return the core's result (of the runtime's run: its exit status is the
-- container's), or nil, msg
function M.run(spec, info)
	local sbx = require "sbx"
	local r, msg = sbx.run(spec)
	if r then
		-- what held the limits: the runtime's cgroup (not rootless), and
		-- no user namespace of sbxlua's for the inotify limits
		for _, k in ipairs { "memory", "tasks" } do
			if not info.rootless then r.enforcement[k] = "cgroup (runtime)" end
		end
		r.enforcement.inotify_instances, r.enforcement.inotify_watches = "none", "none"
	end
	local rt, state = info.runtime, info.state
	-- a runtime stopped by a limit leaves its container: kill and delete
	os.execute(("%s --root %s delete --force %s >/dev/null 2>&1"):format(q(rt.path), q(state), q(info.container)))
	if r then
		local host_net = sh("readlink /proc/self/ns/net"):match("^(%S+)")
		info.mismatches = M.compare(info.asked, info.bundle .. "/record", host_net)
		-- a limit stopped the runtime before its hook: no record to miss
		if r.outcome ~= "exit" and #info.mismatches == 1 and info.mismatches[1]:match("^runtime record: none") then
			info.mismatches = {}
		end
		local left = listed(rt, state)
		if #left > 0 then info.mismatches[#info.mismatches + 1] = "containers left: " .. table.concat(left, " ") end
		info.left = left
		-- the report's isolation lines come from the record
		local rec = info.bundle .. "/record/"
		r.probe = { status = read_file(rec .. "status"), mountinfo = read_file(rec .. "mountinfo"),
			ns = read_file(rec .. "ns") }
	end
	remove_dir(info.bundle)
	return r, msg
end

--- The `poststart` hook's script (the record of the container's process),
-- for another runtime's hooks (`sbx.backend.podman`).
M.HOOK = HOOK

return M
