-- SPDX-License-Identifier: MIT
--- The standard box: the policy of `sbxlua run.lua`, as plain Lua data.
-- `M.build(opts)` turns command-line level options into a spec for
-- `sbx.core.box` and a description of every claim the report may make.
-- Operators copy and change this module, or pass their own opts.  The
-- host side (programs, host paths, the checks of a bind) is
-- `sbx.hostpath`'s and the tree `sbx.boxtree`'s; their public names are
-- this module's too.
-- @module sbx.stdbox
local core = require "sbx.core"
local limits = require "sbx.limits"
local hostid = require "sbx._hostid"
local profile = require "sbx.profile"
local standin = require "sbx.standin"
local written = require "sbx.written"
local sink = require "sbx.sink"
local hostpath = require "sbx.hostpath"
local boxtree = require "sbx.boxtree"
local argcheck = require("sbx._arg").check

local M = {}

for _, name in ipairs { "tree", "user", "host", "etc_files", "proc_readonly", "proc_hidden", "mount_points" } do
	M[name] = boxtree[name]
end
for _, name in ipairs { "path", "path_parts", "host_path", "resolve_links", "find_program", "by_content",
	"caller_hard", "check_writable", "writable_by", "socket_scan", "socket_hides", "script_operand" } do
	M[name] = hostpath[name]
end

--- The analysis box (`run.lua --explore`, `batch.lua` by default, the
-- REPL's `explore`): what it adds to the standard box's options.  The
-- watch profile (the default box's refusals, named; every open, exec,
-- connect, process, file change, signal and memfd recorded and let
-- through), the network sink, decoy credentials; the behaviour summary
-- and verdict are the scripts' (docs/explore.md).  `sleep_skip`: a sleep
-- longer than this many seconds is answered at once, as if it had
-- completed (core/super/sleep.c; the watch profile sends the sleeps); not
-- shorter: a short sleep a timer is meant to cut (`timeout 0.2 sleep 3`)
-- would end first.  `follow`: the box ends when its last process has (or
-- at the wall clock), not with the command: a payload a program leaves
-- running in the background (fork, setsid, parent exits) is seen; the
-- report says what ran on (docs/standard-box.md).  The jail ends with the
-- command.  `standins`: the tools a host lacks played by sbxlua's
-- stand-ins, from a read-only directory last on the PATH (sbx.standin,
-- docs/standins.md).  One owner: every analysis run takes it from here.
M.ANALYSIS = { profile = "watch", net = "sink", decoys = true, by_content = true, sleep_skip = 5,
	follow = true, standins = true, bind_args = true, refusal_end = true }

--- Fills the options o with the analysis box's (`M.ANALYSIS`) where o
-- does not set them already (an option the operator typed wins).
-- @tparam table o
-- @treturn table o
function M.analysis(o)
	for k, v in pairs(M.ANALYSIS) do
		if o[k] == nil then o[k] = v end
	end
	return o
end

--- Host id (uid and gid) a root caller's box is mapped to (see
-- `sbx._hostid`, where it is explained and checked); `o.host_id` chooses
-- another.
M.root_host_id = hostid.root_host_id

--- Checks that id can be a root caller's box's host id: not root, not an
-- account or group of /etc/passwd or /etc/group, held by no process of the
-- host (a box's or a container's processes, in user or pid namespaces of
-- their own, do not count).
-- Accounts only a name service knows (LDAP...) are not seen.
-- @function check_host_id
-- @tparam integer id
-- @return true, or nil, reason
M.check_host_id = hostid.check_host_id

-- The host id a root caller's box runs as (none for another caller), and
-- the caller's effective uid.
-- @return euid, host_id; or nil, reason, the option it concerns
local function host_identity(o)
	local euid = core.ids().euid
	local root_caller = euid == 0
	local host_id = root_caller and (o.host_id or M.root_host_id) or nil
	if o.host_id and not root_caller then return nil, "--host-id needs a root caller", "--host-id" end
	if host_id then
		-- at most once a second (a batch's boxes): sbx._hostid.checked
		local ok, why = hostid.checked(host_id, M.check_host_id)
		if not ok then return nil, why end
	end
	return euid, host_id
end

--- The profile the box's options name: `o.profile` (default "default"),
-- but "watch-rw" for "watch" with a `--rw` bind: a set-id file in a host
-- directory is one on the host while the box runs, so the analysis box
-- keeps the default's set-id refusals there (profiles/watch-rw.lua).
-- @tparam table o options of `M.build`
-- @treturn string
function M.profile_name(o)
	argcheck(o, "table", 1, "profile_name")
	local name = o.profile or "default"
	if name == "watch" and type(o.rw) == "table" and #o.rw > 0 then return "watch-rw" end
	return name
end

-- The seccomp filter: `o.filter`, or the profile `o.profile` compiled
-- (or its cached program, `sbx.profile.filter`); and what a refusal the
-- filter sends does (`o.mode`, else the profile's) and the explain
-- channel's table (`o.notify`, else the profile's: docs/seccomp.md).
-- @return filter (false: none), profile name, mode, notify table; or nil,
--  reason
local function seccomp_filter(o)
	local filter, profile_name = o.filter, M.profile_name(o)
	local mode, ntable = o.mode, o.notify
	if filter == nil then
		local prof
		filter, prof = profile.filter(profile_name)
		if filter == nil then
			if prof:find("^profile ") then return nil, prof end
			return nil, ("profile %s: %s"):format(profile_name, prof)
		end
		local pmode, ptable = profile.notify(prof)
		mode = mode or pmode
		if ntable == nil then ntable = ptable end
	end
	return filter, profile_name, mode, ntable
end

-- The host directory bound at /work, if any; a --rw directory the box's
-- host id cannot write is refused with the fix.
-- @return work_host (false: none); or nil, reason, "--rw"
local function check_rw(o, host_id)
	local work_host = false
	for _, b in ipairs(o.rw or {}) do
		if b.dst == "/work" then work_host = b.src end
		-- the box writes there as its host id: a directory that id
		-- cannot write would fail later, inside the program, unexplained
		local st = host_id and core.lstat(b.src)
		if st and not hostpath.writable_by(st, host_id) then
			return nil, ("--rw %s: the box's host id %d cannot write it"
				.. " (give it the directory: chown %d:%d %s)"):format(b.src, host_id, host_id, host_id, b.src), "--rw"
		end
	end
	return work_host
end

-- The command's argv (argv[0] as typed when it means the same file
-- inside), its environment, and the bytes execve copies onto the new
-- stack for them.
local function command(o, c)
	local host_path, path = c.host_path, c.path
	local env = { PATH = o.standins and boxtree.BOX_PATH .. ":" .. standin.box.dir or boxtree.BOX_PATH, HOME = boxtree.user.home,
		USER = boxtree.user.name, LOGNAME = boxtree.user.name, LANG = "C.UTF-8" }
	for k, v in pairs(o.env or {}) do env[k] = v end
	local argv0 = o.prog
	if o.prog:find("/", 1, true) and not (o.prog:sub(1, 1) == "/" and hostpath.under(host_path, "/usr")) then
		argv0 = path
	end
	local argv = { argv0 }
	-- a file run by its content: its interpreter, then its path
	if c.run_as then
		argv = {}
		for i, a in ipairs(c.run_as) do argv[i] = a end
		argv[#argv + 1] = path
	end
	for _, a in ipairs(o.args or {}) do argv[#argv + 1] = a end
	-- the strings and their pointers
	local arg_bytes = 8
	for _, a in ipairs(argv) do arg_bytes = arg_bytes + #a + 9 end
	for k, v in pairs(env) do arg_bytes = arg_bytes + #k + #v + 10 end
	return argv, env, arg_bytes
end

-- What the build starts from: the resolved limits, the program on the
-- host, the caller and the box's host id, the filter, the host /work.
-- @return a table; or nil, reason and the option it concerns (nil: the
-- program)
local function inputs(o)
	local c, err = {}
	c.lim, err = limits.resolve(o.limits or {})
	if not c.lim then return nil, err end
	c.host_path, err = hostpath.find_program(o.prog)
	-- a sample that is not executable is run by its content when asked
	-- (the analysis box): its interpreter is the program
	if not c.host_path and err == "not executable" and o.by_content then
		local real = hostpath.host_path(o.prog)
		local run_as, why = hostpath.by_content(real)
		if not run_as then return nil, why end
		c.run_as, c.host_path = run_as, real
	end
	if not c.host_path then return nil, err end
	local opt
	c.euid, c.host_id, opt = host_identity(o)
	if not c.euid then return nil, c.host_id, opt end
	c.filter, c.profile_name, c.mode, c.notify = seccomp_filter(o)
	if c.filter == nil then return nil, c.profile_name end
	c.work_host, err, opt = check_rw(o, c.host_id)
	if c.work_host == nil then return nil, err, opt end
	c.net_host = o.net == "host"
	c.host_root = (c.host_id or c.euid) == 0
	c.landlock_abi = core.landlock_abi()
	c.use_landlock = o.landlock ~= false and c.landlock_abi > 0
	return c
end

--- The files a sample is judged on, whose opens the supervisor keeps
-- whole in a budget of their own (`notify.keep`: never summarised with a
-- flood of other names; core/super/notify.h): the password and sudo
-- files, root's home, the credentials of the box user's home (`~`), and
-- every decoy the box places.
M.KEEP_OPENS = { "/etc/shadow", "/etc/gshadow", "/etc/sudoers", "/etc/sudoers.d", "/etc/security/opasswd",
	"/root", "~/.ssh", "~/.aws", "~/.gnupg", "~/.netrc", "~/.git-credentials", "~/.pgpass", "~/.docker",
	"~/.kube", "~/.bash_history", "~/.config/google-chrome", "~/.mozilla", "~/.password-store" }

-- The spec for sbx.core.box, from the inputs c and the tree t.
-- The explain channel's table: the profile's (`c.notify`), with the
-- analysis box's sleep threshold (`o.sleep_skip`, seconds) in ns and the
-- opens kept whole (`M.KEEP_OPENS`, the decoys of tree t).
local function notify_table(o, c, tree)
	if not c.notify then return nil end
	local t = {}
	for k, v in pairs(c.notify) do t[k] = v end
	if o.sleep_skip then t.sleep_skip = math.floor(o.sleep_skip * 1e9) end
	local keep = {}
	for _, p in ipairs(c.notify.keep or {}) do keep[#keep + 1] = p end
	for _, p in ipairs(M.KEEP_OPENS) do keep[#keep + 1] = (p:gsub("^~", boxtree.user.home)) end
	for _, d in ipairs(tree.decoys or {}) do keep[#keep + 1] = d.path end
	t.keep = keep
	return t
end

--- The box's uptime at its start for one run: a whole number of seconds
-- drawn from `boxtree.host.uptime`'s range, or nil (the host's clocks).
-- @treturn integer|nil
function M.uptime()
	local r = boxtree.host.uptime
	if not r then return nil end
	return math.random(r[1], r[2])
end

-- The written places, recorded after the program ends (sbx.written);
-- copied out with --keep.  Nil: no capture.
local function capture_spec(o, t)
	if o.capture == false then return nil end
	return {
		places = t.places, keep = o.keep,
		markers = t.decoys and written.markers(t.decoys) or nil,
		entries = written.bounds.entries, depth = written.bounds.depth,
		read_bytes = written.bounds.read_bytes, keep_bytes = written.bounds.keep_bytes,
		keep_total = written.bounds.keep_total,
		-- the nodes the tree mounts over (the program's own file among
		-- them) are not the program's: never kept nor typed; nor the
		-- home's dot files the tree placed (one the program changed is
		-- recorded, typed and kept as the program's)
		placed = boxtree.capture_placed(t),
	}
end

local function box_spec(o, c, t)
	local lim = c.lim
	local argv, env, arg_bytes = command(o, c)
	local namespaces = { "user", "mount", "pid", "ipc", "uts", "cgroup" }
	if not c.net_host then table.insert(namespaces, 5, "net") end
	return {
		namespaces = namespaces,
		uid = boxtree.user.uid, gid = boxtree.user.gid,
		host_uid = c.host_id, host_gid = c.host_id,
		hostname = boxtree.host.hostname,
		uptime = M.uptime(),
		init = boxtree.host.init or nil,
		root = { size = 1 * limits.MiB, nr_inodes = 1024 },
		read_only_root = true,
		mounts = t.mounts,
		argv = argv, path = c.run_as and c.run_as[1] or c.path,
		env = env,
		cwd = o.cwd or "/work",
		rlimits = limits.rlimits(lim, { host_root = c.host_root,
			caller_hard = hostpath.caller_hard(), arg_bytes = arg_bytes }),
		sysctl = limits.sysctl(lim),
		filter = c.filter or nil,
		landlock = c.use_landlock and { rules = t.ll, net = false } or nil,
		stdin = o.stdin,
		pty = o.pty or nil,
		tty_raw = o.tty_raw or nil,
		stdout = o.stdout or (o.stdout_taken and "stderr") or "pass", stderr = o.stderr or "pass",
		-- what a page or a decoy's marker needs of output passed on
		keep_output = (o.html or o.decoys) and limits.OUTPUT_SHOWN or nil,
		output_limit = lim.output,
		wall = lim.wall,
		memory_limit = lim.memory,
		memory_backstop = limits.memory_backstop(lim),
		task_limit = lim.tasks,
		cpu_limit = lim.cpu,
		-- the whole box's memory and tasks: the core makes a cgroup v2
		-- where a base is usable (exact), else samples them (the
		-- result's `enforcement` says which); rlimits per process beside
		cgroup = o.cgroup ~= false and (o.cgroup or true),
		probe = true,
		-- the analysis box follows the program to its last process
		follow = o.follow or nil,
		capture = capture_spec(o, t),
		sink = o.net == "sink" and sink.spec { ports = o.sink_ports, nxdomain = o.sink_nxdomain } or nil,
		-- the explain channel (docs/seccomp.md): what a refusal does,
		-- the operator's rule, the supervisor's table
		mode = c.mode,
		rule = o.rule,
		notify = notify_table(o, c, t),
	}
end

-- The sha256 of each filter's program, by filter (a compiled filter is
-- immutable: a batch's boxes share one and hash it once).
local program_sums = setmetatable({}, { __mode = "k" })
local function program_sum(filter)
	local sum = program_sums[filter]
	if sum == nil then
		sum = core.sha256(filter:export())
		program_sums[filter] = sum
	end
	return sum
end

-- The claims the report may make of the box, and what sbx.setid needs
-- after the run.
local function claims(o, c, spec, t)
	local own = boxtree.placed_and_mounted(t)
	return {
		namespaces = spec.namespaces,
		network = c.net_host and "host" or o.net == "sink" and "sink" or "none",
		host_root = c.host_root,
		seccomp = c.filter and true or false,
		profile = c.filter and c.profile_name or "none",
		-- the program the kernel gets, not only the profile's name: two
		-- versions of one profile are two environments
		seccomp_program = c.filter and program_sum(c.filter) or nil,
		mode = c.mode,
		notify = c.notify,
		landlock = c.use_landlock,
		landlock_abi = c.use_landlock and c.landlock_abi or 0,
		limits = c.lim,
		env = spec.env,
		ro_roots = t.ro_roots,
		program = c.path,
		-- a file that is not executable, run by its content: the
		-- interpreter and its arguments put before it
		run_as = c.run_as,
		-- the files of the command line bound at /work (`o.bind_args`),
		-- and the script operand the box lacks (`hostpath.script_operand`)
		arg_binds = #c.arg_binds > 0 and c.arg_binds or nil,
		script_missing = c.script_missing,
		-- a refusal the program did not get past is said (sbx.verdict
		-- refusal_end): the analysis box's question, not the jail's
		refusal_end = o.refusal_end or nil,
		-- after the run: the writable host directories and the host id
		-- whose files the box could have made set-id (sbx.setid)
		rw = o.rw or {},
		host_uid = c.host_id or c.euid,
		-- the decoys placed (sbx.written), with their markers
		decoys = t.decoys,
		-- where the tree mounts something: in a written place, the node
		-- under the mount is the tree's, not the program's (sbx.written)
		-- and the files it placed there (path -> their sha256): the
		-- tree's too while unchanged
		mount_points = own,
		-- the box's own writable places that start empty (sbx.learn)
		fresh = boxtree.fresh_roots(t, own),
	}
end

--- The notes of the files the command line named that the box binds
-- (`note: bound from the command line: sample.py at /work/sample.py
-- (read-only)`) and of the script it lacks (`note: not in the box:
-- sample.py, the script python3 opens`).
-- @tparam table info the claims of `M.build`
-- @treturn table events
function M.arg_notes(info)
	argcheck(info, "table", 1, "arg_notes")
	local out = {}
	for _, b in ipairs(info.arg_binds or {}) do
		out[#out + 1] = { kind = "note", cause = "argument", path = b.dst, arg = b.arg,
			text = ("note: bound from the command line: %s at %s (read-only)"):format(b.arg, b.dst) }
	end
	if info.script_missing then
		out[#out + 1] = { kind = "note", cause = "script_missing", arg = info.script_missing,
			text = ("note: not in the box: %s, the script the interpreter opens"):format(info.script_missing) }
	end
	return out
end

--- Builds the standard box.
-- The program's argv[0] is the name as typed when it means the same file
-- inside (a bare name, found in the same PATH; an absolute path under
-- /usr, the same in the box), else the path the box sees (`./sus` bound at
-- `/work/sus` is `/work/sus`): never a host path the box cannot resolve.
-- The seccomp filter is `o.filter`, or the profile `o.profile` (default
-- "default") loaded and compiled here; `filter = false` means none.
-- A root caller's `--rw` directory must be writable by the box's host id
-- (`hostpath.writable_by`), else the build is refused with the fix.
-- @tparam table o options: `prog` (as typed), `args`, `ro`/`rw` lists of
--  `{src=, dst=}`, `tmp` list of `{dst=, size=}`, `env` (map), `cwd`,
--  `socket` list of `{src=, dst=}` (unix sockets the box may connect to;
--  every other socket in `ro`/`rw` is covered, see `hostpath.socket_hides`),
--  `limits` (names of `sbx.limits`, parsed there), `net` ("none"|"host"|"sink": an empty namespace whose every IPv4 address
--  is a listener of the supervisor, `sbx.sink`; `sink_ports`, `sink_nxdomain`),
--  `stdin` (a string, or an `sbx.file` opened before), `cgroup` (a cgroup v2 base, or false for none),
--  `filter` (a compiled filter, false for none, default: the profile),
--  `profile` (its name, default "default"), `pty`
--  (stdio on a pseudo-terminal of the box's own, relaying the caller's),
--  `landlock` (default true), `host_id` (a root caller's box's host id,
--  default `M.root_host_id`, checked by `M.check_host_id`), `capture`
--  (false: the written places are not recorded), `keep` (a directory the
--  written files are copied into, made 0700), `decoys` (place decoy
--  credentials, `sbx.written.decoys`), `standins` (the tools the host
--  lacks played in a read-only directory last on the PATH, `sbx.standin`)
-- @return spec, info; or nil, msg and the option it concerns (nil: the program)
function M.build(o)
	local c, err, opt = inputs(o)
	if not c then return nil, err, opt end
	local t, why, wopt = boxtree.make(o, c)
	if not t then return nil, why, wopt end
	local spec = box_spec(o, c, t)
	return spec, claims(o, c, spec, t)
end

return M
