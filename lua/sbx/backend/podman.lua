-- SPDX-License-Identifier: MIT
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
local json = require "sbx.json"
local stdbox = require "sbx.stdbox"
local profile = require "sbx.profile"
local oci = require "sbx.backend.oci"
local image = require "sbx.backend.image"
local rootfs = require "sbx.backend.rootfs"

local M = {}

local shell = require "sbx._shell"
local q, sh = shell.quote, shell.run

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
	local args, asked = {}, oci.rlimits(base, info)
	for _, r in ipairs(asked) do
		args[#args + 1] = "--ulimit"
		args[#args + 1] = ("%s=%d:%d"):format(r.type:sub(#"RLIMIT_" + 1):lower(), r.soft, r.hard)
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

-- The image checked and unpacked, and the program found in it: the root
-- directory, the program's path, the image's digest; or nil, msg, "--image".
local function unpacked_image(o)
	local root, digest, opt = image.unpacked(o.image)
	if not root then return nil, digest, opt end
	local path, fperr = rootfs.find_program(root, o.prog)
	if not path then return nil, fperr end
	return root, path, digest
end

-- The standard box's limits, environment and profile for the options:
-- base, info; or nil, msg.
local function standard_box(o)
	local o2 = {}
	for k, v in pairs(o) do o2[k] = v end
	o2.prog, o2.image, o2.backend, o2.runtime = "true", nil, nil, nil
	return stdbox.build(o2)
end

-- The profile as OCI's seccomp rules (the OCI backend's translation):
-- true and the JSON text (nil for no filter); or nil, msg.
local function seccomp_json(info)
	if info.profile == "none" then return true, nil end
	local prof, lerr = profile.load(info.profile)
	if prof == nil then return nil, lerr end
	if not prof then return true, nil end
	local rules, serr = oci.seccomp(prof)
	if not rules then return nil, "profile " .. info.profile .. ": " .. serr end
	return true, oci.encode(rules) .. "\n"
end

-- The container's user: rootless, the standard box's host id, uid, gid.
-- A root caller's container: no user namespace (runc, in one mapped onto
-- the host id, could not reach the cache, the caller's 0700 directory),
-- the program as the standard box's host id itself, checked unused by any
-- account or process (sbx.stdbox); a rootless caller's: the container's
-- uid 0, the caller on the host.
local function container_user(base)
	local euid = core.ids().euid
	local rootless = euid ~= 0
	local host_id = base.host_uid or euid
	local uid, gid = host_id, host_id
	if rootless then uid, gid = 0, 0 end
	return rootless, host_id, uid, gid
end

-- The run's private directory under the OCI backend's tmpdir: the
-- poststart hook's definition and record directory, and the seccomp
-- file (false for none).  Returns the directory and the seccomp file's
-- path or false; or nil, msg.
local function private_dir(seccomp_text)
	local work = oci.tmpdir
	local priv = shell.private_dir(work, "podman")
	if not priv then return nil, "cannot make a directory under " .. work end
	os.execute(("mkdir -m 755 %s/hooks %s/record && chmod 755 %s"):format(q(priv), q(priv), q(priv)))
	local hook = { version = "1.0.0", hook = { path = "/bin/sh", args = { "sh", "-c", oci.HOOK, "sh", priv .. "/record" },
		timeout = 10 }, when = { always = true }, stages = { "poststart" } }
	shell.write_file(priv .. "/hooks/sbxlua-record.json", oci.encode(hook) .. "\n")
	local seccomp = false
	if seccomp_text then
		seccomp = priv .. "/seccomp.json"
		shell.write_file(seccomp, seccomp_text)
	end
	return priv, seccomp
end

local function append(argv, args)
	for _, a in ipairs(args) do argv[#argv + 1] = a end
end

-- podman itself and its `run` of the container by name, labelled with
-- the run's private directory (which names the caller's TMPDIR: runs of
-- one caller are told from another's in `podman ps`).  podman's own notes
-- (a rootless podman's warnings of the host's set-up) would mix with the
-- program's stderr: its errors only.
local function podman_args(pm, priv, name)
	return { pm.path, "--log-level=fatal", "--cgroup-manager=cgroupfs", "--runtime", pm.runc, "--hooks-dir", priv .. "/hooks",
		"run", "--name", name, "--label", "sbxlua.private=" .. priv, "--pull=never" }
end

-- The tree: the root a directory (`--rootfs`), read-only.
local TREE_ARGS = { "--rootfs", "--read-only", "--read-only-tmpfs=false" }

-- The security options: no network, no capability, no_new_privs, the
-- seccomp file (or none).
local function security_args(seccomp)
	return { "--network=none", "--cap-drop=all", "--security-opt=no-new-privileges",
		"--security-opt", "seccomp=" .. (seccomp or "unconfined") }
end

-- The container's process: its user, hostname and directory, no log, no
-- grace at stop, and namespaces of its own.
local function process_args(base, uid, gid)
	return { "--user", ("%d:%d"):format(uid, gid), "--hostname", base.hostname or "sbx",
		"--workdir", base.cwd or "/work", "--log-driver=none", "--stop-timeout=0", "--cgroupns=private",
		"--ipc=private", "--pid=private", "--uts=private" }
end

-- A root caller's memory and task limits (podman's cgroup); none rootless.
local function cgroup_limit_args(info, rootless)
	if rootless then return {} end
	return { "--memory=" .. info.limits.memory, "--memory-swap=" .. info.limits.memory,
		"--pids-limit=" .. info.limits.tasks }
end

-- The standard box's environment, by name, as podman's --env.
local function env_args(env)
	local args = {}
	for _, k in ipairs(json.sorted_keys(env)) do
		args[#args + 1] = "--env"
		args[#args + 1] = k .. "=" .. env[k]
	end
	return args
end

-- podman's command line for the container c (the fields `container`
-- gathers); and the rlimits asked (the list oci.compare checks).
local function command_line(c, o)
	local base, info = c.base, c.info
	local argv = {}
	append(argv, podman_args(c.pm, c.priv, c.name))
	append(argv, TREE_ARGS)
	append(argv, security_args(c.seccomp))
	append(argv, process_args(base, c.uid, c.gid))
	append(argv, cgroup_limit_args(info, c.rootless))
	if base.stdin then argv[#argv + 1] = "--interactive" end
	local uargs, asked_rl = ulimits(base, info)
	append(argv, uargs)
	append(argv, tmpfs_args(base))
	append(argv, env_args(base.env))
	-- the root (--rootfs: the first argument is a directory, not an
	-- image), then the command
	append(argv, { "--", c.root, c.path })
	append(argv, o.args or {})
	return argv, asked_rl
end

-- The core spec that runs podman with argv, in the private directory.
local function podman_spec(argv, priv, base)
	local env = { PATH = "/usr/sbin:/usr/bin:/sbin:/bin" }
	-- podman's own storage and state are the caller's
	for _, k in ipairs { "HOME", "XDG_RUNTIME_DIR", "XDG_DATA_HOME", "XDG_CONFIG_HOME" } do
		local v = os.getenv(k)
		if v and v:sub(1, 1) == "/" then env[k] = v end
	end
	return {
		backend = "process",
		argv = argv, env = env, cwd = priv,
		-- podman and runc need their capabilities; the container drops them
		drop_caps = false, no_new_privs = false,
		stdin = base.stdin, stdout = base.stdout, stderr = base.stderr,
		output_limit = base.output_limit, wall = base.wall,
		memory_limit = base.memory_limit, task_limit = base.task_limit, cpu_limit = base.cpu_limit,
		cgroup = false,
	}
end

-- The standard box's info told what podman runs: the container, its
-- image and program, its namespaces, the report's lines and what the
-- records are compared with.
local function podman_info(c, asked_rl)
	local info, pm, rootless, digest = c.info, c.pm, c.rootless, c.digest
	info.backend = "podman"
	info.kind = "podman"
	info.runtime = pm
	info.container = c.name
	info.private = c.priv
	info.rootless = rootless
	info.image = digest
	info.program = c.path
	info.landlock, info.landlock_abi = false, 0
	info.seccomp = c.seccomp ~= false
	info.seccomp_unread = true
	info.root_dir = true
	-- the record as the hook sees it: a rootless podman runs its hooks in
	-- a user namespace of its own where the caller is uid 0
	info.record_uid = rootless and 0 or c.host_id
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
		root = c.root, user = ("%d:%d"):format(c.uid, c.gid), runc = pm.runc, seccomp = c.seccomp or "unconfined" }
	return info
end

-- Everything the command line and the info are made of, in the order the
-- checks run (the first failure is the message): the container's fields;
-- or nil, msg.
local function container(o)
	local pm, perr = M.find()
	if not pm then return nil, perr end
	local root, path, digest = unpacked_image(o)
	if not root then return nil, path, digest end
	local base, info, opt = standard_box(o)
	if not base then return nil, info, opt end
	local ok, seccomp_text = seccomp_json(info)
	if not ok then return nil, seccomp_text end
	local rootless, host_id, uid, gid = container_user(base)
	local priv, seccomp = private_dir(seccomp_text)
	if not priv then return nil, seccomp end
	return { pm = pm, root = root, path = path, digest = digest, base = base, info = info,
		rootless = rootless, host_id = host_id, uid = uid, gid = gid, priv = priv, seccomp = seccomp,
		name = "sbxlua-" .. priv:match("([%w]+)$"):lower() }
end

--- Builds the podman run: the image checked and unpacked
-- (`sbx.backend.image`), the program found in it, podman's command line.
-- @tparam table o the options of `sbx.stdbox.build`, with `image`
-- @return spec (the core spec that runs podman), info; or nil, msg, the option
function M.build(o)
	local c, err, option = container(o)
	if not c then return nil, err, option end
	local argv, asked_rl = command_line(c, o)
	local spec = podman_spec(argv, c.priv, c.base)
	return spec, podman_info(c, asked_rl)
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
		shell.remove_dir(oci.tmpdir, "podman", info.private)
	end
	return r, msg
end

return M
