--- The OCI backend through podman: `--backend oci --runtime podman
-- --image DIR@sha256:HEX`.  The image is the one `sbx.backend.image`
-- reads, checks and unpacks into the caller's cache (podman never pulls:
-- the container's root is that directory, `podman run --rootfs`, and
-- `--pull=never`); podman runs it with runc, under the core's supervision
-- as the OCI backend runs runc (the command of a box with no namespace of
-- its own).  What is asked: the standard box's user (a root caller's in a
-- user namespace onto the standard box's host id, a rootless caller's the
-- container's uid 0, the caller on the host), a read-only root, no
-- network, every capability dropped, no_new_privs, the standard box's
-- rlimits, hostname, environment, `/work` and `/tmp` tmpfs, the seccomp
-- profile, and a root caller's memory and task limits.
--
-- Two records are read back after the run and compared with what was
-- asked: `podman inspect` of the container (podman's own account of it),
-- and the OCI backend's `poststart` hook (`sbx.backend.oci`'s record of
-- the container's process from the host's `/proc`), through podman's
-- `--hooks-dir`.  A difference is a `not as asked:` line and exit 126.
-- Then the container is removed and podman's list checked.
-- @module sbx.backend.podman
local core = require "sbx.core"
local cjson = require "cjson"
local stdbox = require "sbx.stdbox"
local profile = require "sbx.profile"
local limits = require "sbx.limits"
local oci = require "sbx.backend.oci"
local image = require "sbx.backend.image"
local rootfs = require "sbx.backend.rootfs"

local M = {}

local function q(s) return "'" .. tostring(s):gsub("'", "'\\''") .. "'" end

local function sh(cmd)
	local f = assert(io.popen(cmd, "r"))
	local out = f:read("a")
	local ok = f:close()
	return out, ok
end

local function write_file(path, data)
	local f, msg = io.open(path, "w")
	if not f then return nil, msg end
	f:write(data)
	f:close()
	return true
end

--- podman's path and version, and runc's (the runtime podman is told to
-- use: crun refuses this host's hybrid cgroup layout); or nil, why.
function M.find()
	local pm, rc
	for _, d in ipairs(oci.bin_dirs) do
		pm = pm or (core.access(d .. "/podman", "x") and d .. "/podman") or nil
		rc = rc or (core.access(d .. "/runc", "x") and d .. "/runc") or nil
	end
	if not pm then return nil, "podman is not installed" end
	if not rc then return nil, "runc is not installed (podman runs it)" end
	local v = sh(q(pm) .. " --version 2>/dev/null"):match("version (%S+)") or "unknown"
	local rv = sh(q(rc) .. " --version 2>/dev/null"):match("version (%S+)") or "unknown"
	return { name = "podman", path = pm, version = v, runc = rc, runc_version = rv }
end

-- podman's --ulimit for each of the standard box's rlimits (unlimited
-- ones left as they are); and the list oci.compare checks.
local function ulimits(base, info)
	base.rlimits.data = limits.memory_backstop(info.limits)
	local names, args, asked = {}, {}, {}
	for k in pairs(base.rlimits) do names[#names + 1] = k end
	table.sort(names)
	for _, k in ipairs(names) do
		local v = base.rlimits[k]
		local soft, hard = v, v
		if type(v) == "table" then soft, hard = v[1], v[2] end
		if math.type(soft) == "integer" and math.type(hard) == "integer" then
			args[#args + 1] = "--ulimit"
			args[#args + 1] = ("%s=%d:%d"):format(k, soft, hard)
			asked[#asked + 1] = { type = "RLIMIT_" .. k:upper(), soft = soft, hard = hard }
		end
	end
	return args, asked
end

-- The tmpfs of the standard box at /work and /tmp, as podman's --tmpfs.
local function tmpfs_args(base)
	local args = {}
	for _, m in ipairs(base.mounts) do
		if m.type == "tmpfs" and (m.dst == "/work" or m.dst == "/tmp") then
			local o = { "rw", "nosuid", "nodev" }
			if m.size then o[#o + 1] = "size=" .. m.size end
			-- podman 4.3 takes no nr_inodes: the kernel's default count
			if m.mode then o[#o + 1] = ("mode=%o"):format(m.mode) end
			-- owned by the container's user (podman's U: chowned to it)
			if m.dst == "/work" then o[#o + 1] = "U" end
			args[#args + 1] = "--tmpfs"
			args[#args + 1] = m.dst .. ":" .. table.concat(o, ",")
		end
	end
	return args
end

--- Builds the podman run: the image checked and unpacked
-- (`sbx.backend.image`), the program found in it, podman's command line.
-- @tparam table o the options of `sbx.stdbox.build`, with `image`
-- @return spec (the core spec that runs podman), info; or nil, msg
function M.build(o)
	if not o.image then return nil, "--runtime podman: needs --image (podman runs only a verified local image)" end
	if o.rootfs then return nil, "--rootfs: not with podman (give --image)" end
	if o.socket and #o.socket > 0 then return nil, "--socket: not with podman" end
	if (o.rw and #o.rw > 0) or (o.ro and #o.ro > 0) or (o.tmp and #o.tmp > 0) then
		return nil, "--ro, --rw, --tmp: not with podman (the image is the whole tree)"
	end
	if o.net and o.net ~= "none" then return nil, "--net: podman runs with no network only" end
	local pm, perr = M.find()
	if not pm then return nil, perr end
	local dir, digest = image.parse(o.image)
	if not dir then return nil, ("--image %s: %s"):format(tostring(o.image), digest) end
	local img, ierr = image.read(dir, digest)
	if not img then return nil, ("--image %s: %s"):format(o.image, ierr) end
	local root, uerr = image.unpack(img)
	if not root then return nil, ("--image %s: %s"):format(o.image, uerr) end
	local path, fperr = rootfs.find_program(root, o.prog)
	if not path then return nil, fperr end
	-- the standard box's limits, environment and profile
	local o2 = {}
	for k, v in pairs(o) do o2[k] = v end
	o2.prog, o2.image, o2.backend, o2.runtime = "true", nil, nil, nil
	local base, info = stdbox.build(o2)
	if not base then return nil, info end

	-- the profile as OCI's seccomp rules (the OCI backend's translation)
	local seccomp_text
	if info.profile ~= "none" then
		local prof, lerr = profile.load(info.profile)
		if prof == nil then return nil, lerr end
		if prof then
			local rules, serr = oci.seccomp(prof)
			if not rules then return nil, "profile " .. info.profile .. ": " .. serr end
			seccomp_text = oci.encode(rules) .. "\n"
		end
	end

	local euid = core.ids().euid
	local rootless = euid ~= 0
	local host_id = base.host_uid or euid
	-- a root caller's container: no user namespace (runc, in one mapped
	-- onto the host id, could not reach the cache, the caller's 0700
	-- directory), the program as the standard box's host id itself,
	-- checked unused by any account or process (sbx.stdbox); a rootless
	-- caller's: the container's uid 0, the caller on the host
	local uid, gid = host_id, host_id
	if rootless then uid, gid = 0, 0 end
	local work = oci.tmpdir
	local priv = sh("mktemp -d " .. work .. "/sbxlua-podman.XXXXXXXX 2>/dev/null"):match("^(/[%w/._-]+)\n")
	if not priv then return nil, "cannot make a directory under " .. work end
	os.execute(("mkdir -m 755 %s/hooks %s/record && chmod 755 %s"):format(q(priv), q(priv), q(priv)))
	local hook = { version = "1.0.0", hook = { path = "/bin/sh", args = { "sh", "-c", oci.HOOK, "sh", priv .. "/record" },
		timeout = 10 }, when = { always = true }, stages = { "poststart" } }
	write_file(priv .. "/hooks/sbxlua-record.json", oci.encode(hook) .. "\n")
	local seccomp = false
	if seccomp_text then
		seccomp = priv .. "/seccomp.json"
		write_file(seccomp, seccomp_text)
	end
	local name = "sbxlua-" .. priv:match("([%w]+)$"):lower()
	-- podman's own notes (a rootless podman's warnings of the host's
	-- set-up) would mix with the program's stderr: its errors only
	local argv = { pm.path, "--log-level=fatal", "--cgroup-manager=cgroupfs", "--runtime", pm.runc, "--hooks-dir", priv .. "/hooks",
		"run", "--name", name, "--pull=never", "--rootfs", "--read-only", "--read-only-tmpfs=false",
		"--network=none", "--cap-drop=all", "--security-opt=no-new-privileges",
		"--security-opt", "seccomp=" .. (seccomp or "unconfined"),
		"--user", ("%d:%d"):format(uid, gid), "--hostname", base.hostname or "sbx",
		"--workdir", base.cwd or "/work", "--log-driver=none", "--stop-timeout=0", "--cgroupns=private",
		"--ipc=private", "--pid=private", "--uts=private" }
	if not rootless then
		argv[#argv + 1] = "--memory=" .. info.limits.memory
		argv[#argv + 1] = "--memory-swap=" .. info.limits.memory
		argv[#argv + 1] = "--pids-limit=" .. info.limits.tasks
	end
	if base.stdin then argv[#argv + 1] = "--interactive" end
	local uargs, asked_rl = ulimits(base, info)
	for _, a in ipairs(uargs) do argv[#argv + 1] = a end
	for _, a in ipairs(tmpfs_args(base)) do argv[#argv + 1] = a end
	local keys = {}
	for k in pairs(base.env) do keys[#keys + 1] = k end
	table.sort(keys)
	for _, k in ipairs(keys) do
		argv[#argv + 1] = "--env"
		argv[#argv + 1] = k .. "=" .. base.env[k]
	end
	-- the root (--rootfs: the first argument is a directory, not an
	-- image), then the command
	argv[#argv + 1] = "--"
	argv[#argv + 1] = root
	argv[#argv + 1] = path
	for _, a in ipairs(o.args or {}) do argv[#argv + 1] = a end

	local env = { PATH = "/usr/sbin:/usr/bin:/sbin:/bin" }
	-- podman's own storage and state are the caller's
	for _, k in ipairs { "HOME", "XDG_RUNTIME_DIR", "XDG_DATA_HOME", "XDG_CONFIG_HOME" } do
		local v = os.getenv(k)
		if v and v:sub(1, 1) == "/" then env[k] = v end
	end
	local spec = {
		backend = "process",
		argv = argv, env = env, cwd = priv,
		-- podman and runc need their capabilities; the container drops them
		drop_caps = false, no_new_privs = false,
		stdin = base.stdin, stdout = base.stdout, stderr = base.stderr,
		output_limit = base.output_limit, wall = base.wall,
		memory_limit = base.memory_limit, task_limit = base.task_limit, cpu_limit = base.cpu_limit,
		cgroup = false,
	}
	info.backend = "podman"
	info.kind = "podman"
	info.runtime = pm
	info.container = name
	info.private = priv
	info.rootless = rootless
	info.image = digest
	info.program = path
	info.landlock, info.landlock_abi = false, 0
	info.seccomp = seccomp ~= false
	info.seccomp_unread = true
	info.root_dir = true
	-- the record as the hook sees it: a rootless podman runs its hooks in
	-- a user namespace of its own where the caller is uid 0
	info.record_uid = rootless and 0 or host_id
	if not rootless then
		-- podman's rootful container has every namespace but the user's
		local ns = {}
		for _, n in ipairs(info.namespaces) do
			if n ~= "user" then ns[#ns + 1] = n end
		end
		info.namespaces = ns
	end
	info.root_name = "the verified image " .. digest
	info.first_line = ("isolation: oci (podman %s, runc %s%s)"):format(pm.version, pm.runc_version,
		rootless and ", rootless" or "")
	info.digest_extra = { "runtime=podman", "rootless=" .. tostring(rootless), "image=" .. digest }
	info.asked = { uid = info.record_uid, memory = not rootless and info.limits.memory or nil,
		tasks = not rootless and info.limits.tasks or nil, rlimits = asked_rl, network = true,
		root = root, user = ("%d:%d"):format(uid, gid), runc = pm.runc, seccomp = seccomp or "unconfined" }
	return spec, info
end

--- Compares what was asked with `podman inspect`'s account of the
-- container (a decoded JSON object): the list of properties it says
-- otherwise, each "<property>: asked <a>, recorded <b>".
-- @tparam table asked `info.asked`
-- @tparam table c the container's object
function M.compare_inspect(asked, c)
	local bad = {}
	local function differ(what, a, b)
		bad[#bad + 1] = ("podman %s: asked %s, recorded %s"):format(what, tostring(a), tostring(b))
	end
	local hc, cfg = c.HostConfig or {}, c.Config or {}
	if c.Rootfs ~= asked.root then differ("root", "the verified image's directory", c.Rootfs) end
	if hc.ReadonlyRootfs ~= true then differ("read-only root", true, hc.ReadonlyRootfs) end
	if hc.NetworkMode ~= "none" then differ("network", "none", hc.NetworkMode) end
	if type(hc.CapAdd) == "table" and #hc.CapAdd > 0 then
		differ("capabilities added", "none", table.concat(hc.CapAdd, ","))
	end
	if type(c.EffectiveCaps) == "table" and #c.EffectiveCaps > 0 then
		differ("effective capabilities", "none", table.concat(c.EffectiveCaps, ","))
	end
	local nnp, sec = false, nil
	for _, s in ipairs(type(hc.SecurityOpt) == "table" and hc.SecurityOpt or {}) do
		if s == "no-new-privileges" or s == "no-new-privileges:true" then nnp = true end
		if type(s) == "string" and s:find("^seccomp=") then sec = s:sub(9) end
	end
	if not nnp then differ("no_new_privs", "no-new-privileges", "not set") end
	if asked.seccomp and sec ~= asked.seccomp then differ("seccomp", asked.seccomp, sec or "podman's default") end
	if cfg.User ~= asked.user then differ("user", asked.user, cfg.User) end
	if c.OCIRuntime ~= "runc" and c.OCIRuntime ~= asked.runc then differ("runtime", "runc", c.OCIRuntime) end
	return bad
end

--- Runs a spec of `M.build`: podman under the core's supervision, then
-- `podman inspect` and the hook's record compared (`info.mismatches`),
-- the container removed, the private directory removed.
-- @return the core's result (podman's run: its exit status is the
-- container's), or nil, msg
function M.run(spec, info)
	local sbx = require "sbx"
	local r, msg = sbx.run(spec)
	local pm, name = info.runtime, info.container
	local base = q(pm.path) .. " --cgroup-manager=cgroupfs "
	if r then
		r.enforcement = r.enforcement or {}
		for _, k in ipairs { "memory", "tasks" } do
			if not info.rootless then r.enforcement[k] = "cgroup (runtime)" end
		end
		r.enforcement.inotify_instances, r.enforcement.inotify_watches = "none", "none"
		local host_net = sh("readlink /proc/self/ns/net"):match("^(%S+)")
		local bad = oci.compare(info.asked, info.private .. "/record", host_net)
		if r.outcome ~= "exit" and #bad == 1 and bad[1]:match("^runtime record: none") then bad = {} end
		local text = sh(base .. "inspect --type container " .. q(name) .. " 2>/dev/null")
		local ok, list = pcall(cjson.decode, text)
		if ok and type(list) == "table" and type(list[1]) == "table" then
			for _, m in ipairs(M.compare_inspect(info.asked, list[1])) do bad[#bad + 1] = m end
		elseif r.outcome == "exit" then
			bad[#bad + 1] = "podman inspect: none (the container was not made)"
		end
		info.mismatches = bad
		local rec = info.private .. "/record/"
		local function read(p)
			local f = io.open(rec .. p)
			if not f then return nil end
			local s = f:read("a")
			f:close()
			return s
		end
		r.probe = { status = read("status"), mountinfo = read("mountinfo"), ns = read("ns") }
	end
	os.execute(base .. "rm --force " .. q(name) .. " >/dev/null 2>&1")
	if r then
		local left = sh(base .. "ps --all --quiet --filter " .. q("name=^" .. name .. "$") .. " 2>/dev/null")
		if left:match("%S") then info.mismatches[#info.mismatches + 1] = "containers left: " .. name end
	end
	if info.private and info.private:match("/sbxlua%-podman%.[%w]+$") then
		os.execute("rm -rf -- " .. q(info.private))
	end
	return r, msg
end

return M
