-- SPDX-License-Identifier: MIT
--- The named resource limits of the standard box: their defaults, the
-- parsing of sizes and durations an operator writes, the resource limits
-- and sysctls of a spec, how each limit of a run was enforced, and how the
-- end of a run is classified against them.  Its words are `sbx.report`'s.
-- Everything here is pure: no system call, no `sbx.core`.
-- See docs/limits.md.
-- @module sbx.limits
local argcheck = require("sbx._arg").check

local M = {}

local type, tonumber, tostring, pairs, ipairs, error =
	type, tonumber, tostring, pairs, ipairs, error
local floor, ceil, huge, mtype = math.floor, math.ceil, math.huge, math.type
local format = string.format

--- Binary units, in bytes.
M.KiB = 1024
M.MiB = 1024 * 1024
M.GiB = 1024 * 1024 * 1024

--- Bytes of each of the program's streams a result shows (`output` in
-- the JSON, the HTML page): the first, of output captured or passed.
M.OUTPUT_SHOWN = 64 * M.KiB

--- The limits by name, in report order.
M.names = { "wall", "cpu", "memory", "tasks", "output", "open_files",
	"file_size", "core", "tmp", "pending_signals", "msgqueue",
	"inotify_instances", "inotify_watches" }

--- The kind of each limit: `"duration"` (seconds), `"size"` (bytes) or
-- `"count"`.
M.kinds = {
	wall = "duration", cpu = "duration", memory = "size", tasks = "count",
	output = "size", open_files = "count", file_size = "size", core = "size",
	tmp = "size", pending_signals = "count", msgqueue = "size",
	inotify_instances = "count", inotify_watches = "count",
}

--- The limits of the standard box.  `output` is per stream; `tasks`
-- counts processes and threads; `core` 0 means no core dump.  The last
-- four are shares of per-user counters the kernel also keeps for the
-- box's host id, so that a box cannot take all of them from that id's
-- other processes (docs/limits.md): queued signals, POSIX message queue
-- bytes, inotify instances and watches.
M.defaults = {
	wall = 60,
	cpu = 30,
	memory = 512 * M.MiB,
	tasks = 128,
	output = 16 * M.MiB,
	open_files = 256,
	file_size = 64 * M.MiB,
	core = 0,
	tmp = 64 * M.MiB,
	pending_signals = 1024,
	msgqueue = 256 * M.KiB,
	inotify_instances = 8,
	inotify_watches = 8192,
}

--- Limits that may be 0 (all others must be positive).
M.zero_ok = { core = true }

--- The least value of a limit, where it is more than 1: a tmpfs holds
-- at least a page (the spec refuses a smaller one: core/api/mount.c).
M.minimum = { tmp = 4096 }

-- ---- parsing ----

local size_units = {
	[""] = 1, b = 1,
	k = M.KiB, kib = M.KiB,
	m = M.MiB, mib = M.MiB,
	g = M.GiB, gib = M.GiB,
	t = 1024 * M.GiB, tib = 1024 * M.GiB,
}

local duration_units = {
	[""] = 1, s = 1, ms = 0.001, m = 60, min = 60, h = 3600,
}

local MAX_SIZE = 1 << 62

-- v as a number: v itself, or the number from_text reads in a string
-- (nil, why: a bad text); raises, blaming the parser's caller, for any
-- other type
local function number_of(what, v, from_text)
	if type(v) == "number" then return v end
	if type(v) == "string" then return from_text(v) end
	error(format("bad %s (a %s): expected a number or a string", what, type(v)), 3)
end

-- the refusal of a value n below 0, or of 0 unless zero_ok (nil: none)
local function sign_refused(what, v, n, zero_ok)
	if n < 0 or (n == 0 and not zero_ok) then
		return format("%s '%s' must be %s", what, tostring(v), zero_ok and "0 or more" or "above 0")
	end
	return nil
end

-- the bytes of a size's text: a number and a unit
local function size_text(v)
	local num, unit = v:match("^%s*(%d+%.?%d*)%s*(%a*)%s*$")
	if not num then
		return nil, format("bad size '%s': expected bytes, or a number "
			.. "followed by K, M, G or T", v)
	end
	local mult = size_units[unit:lower()]
	if not mult then
		if unit:lower():match("^[kmgt]b$") then
			return nil, format("ambiguous unit in size '%s': write %s "
				.. "or %siB (1024-based)", v, unit:sub(1, 1):upper(),
				unit:sub(1, 1):upper())
		end
		return nil, format("bad unit '%s' in size '%s': expected K, M, "
			.. "G or T", unit, v)
	end
	return tonumber(num) * mult
end

--- Parses a size: a number of bytes, or a string such as `"512M"`, `"1G"`,
-- `"64KiB"`, `"1.5G"` or `"4096"`.  Units are binary (K = KiB = 1024);
-- `KB`, `MB`... are refused as ambiguous.  Raises when `v` is neither a
-- number nor a string.
-- @param v number or string
-- @tparam[opt] boolean zero_ok accept 0
-- @treturn integer bytes
-- @return nil, message on a bad value
function M.parse_size(v, zero_ok)
	local n, why = number_of("size", v, size_text)
	if not n then return nil, why end
	if n ~= n or n == huge or n >= MAX_SIZE then
		return nil, format("size '%s' is out of range", tostring(v))
	end
	if n ~= floor(n) then
		return nil, format("size '%s' is not a whole number of bytes",
			tostring(v))
	end
	why = sign_refused("size", v, n, zero_ok)
	if why then return nil, why end
	return floor(n)
end

-- the seconds of a duration's text: a number and a unit
local function duration_text(v)
	local num, unit = v:match("^%s*(%d*%.?%d+)%s*(%a*)%s*$")
	if not num then
		return nil, format("bad duration '%s': expected seconds, or a "
			.. "number followed by ms, s, m or h", v)
	end
	local mult = duration_units[unit:lower()]
	if not mult then
		return nil, format("bad unit '%s' in duration '%s': expected "
			.. "ms, s, m or h", unit, v)
	end
	return tonumber(num) * mult
end

--- Parses a duration: a number of seconds, or a string such as `"30"`,
-- `"1.5s"`, `"500ms"`, `"2m"` or `"1h"`.  Raises when `v` is neither a
-- number nor a string.
-- @param v number or string
-- @treturn number seconds, above 0
-- @return nil, message on a bad value
function M.parse_duration(v)
	local n, why = number_of("duration", v, duration_text)
	if not n then return nil, why end
	if n ~= n or n == huge or n > 1e7 then
		return nil, format("duration '%s' is out of range", tostring(v))
	end
	if n <= 0 then
		return nil, format("duration '%s' must be above 0", tostring(v))
	end
	return n
end

-- the number of a count's text: digits
local function count_text(v)
	local n = v:match("^%s*(%d+)%s*$") and tonumber(v)
	if not n then return nil, format("bad count '%s': expected a whole number", v) end
	return n
end

--- Parses a count (tasks, open files): a whole number, or a string of
-- digits.  Raises when `v` is neither a number nor a string.
-- @param v number or string
-- @tparam[opt] boolean zero_ok accept 0
-- @treturn integer
-- @return nil, message on a bad value
function M.parse_count(v, zero_ok)
	local n, why = number_of("count", v, count_text)
	if not n then return nil, why end
	if n ~= floor(n) or n >= 1 << 31 then
		return nil, format("count '%s' is not a whole number in range",
			tostring(v))
	end
	why = sign_refused("count", v, n, zero_ok)
	if why then return nil, why end
	return floor(n)
end

--- Parses the value of the named limit by its kind.
-- @tparam string name one of `M.names`
-- @param v number or string
-- @return the value (seconds, bytes or a count)
-- @return nil, message for an unknown name or a bad value
function M.parse(name, v)
	local kind = M.kinds[name]
	if not kind then
		return nil, format("unknown limit '%s'", tostring(name))
	end
	local r, err
	if kind == "duration" then
		r, err = M.parse_duration(v)
	elseif kind == "size" then
		r, err = M.parse_size(v, M.zero_ok[name])
	else
		r, err = M.parse_count(v, M.zero_ok[name])
	end
	if r == nil then
		return nil, format("limit '%s': %s", name, err)
	end
	if M.minimum[name] and r < M.minimum[name] then
		return nil, format("limit '%s': '%s' is less than %d bytes (a page)", name, tostring(v),
			M.minimum[name])
	end
	return r
end

--- The defaults with the given overrides parsed over them.
-- @tparam[opt] table over name -> value (number or string)
-- @treturn table every limit by name
-- @return nil, message for an unknown name or a bad value
function M.resolve(over)
	if over ~= nil and type(over) ~= "table" then
		error("bad limits (a " .. type(over) .. "): expected a table", 2)
	end
	local t = {}
	for k, v in pairs(M.defaults) do t[k] = v end
	for k, v in pairs(over or {}) do
		local r, err = M.parse(k, v)
		if r == nil then return nil, err end
		t[k] = r
	end
	return t
end

-- ---- classification ----

--- Causes a run can be stopped for.
M.CAUSE = {
	MEMORY = "memory", CPU = "cpu", TASKS = "tasks", OUTPUT = "output",
	WALL = "wall", FILE_SIZE = "file_size",
}

-- outcomes of a run that are the supervisor's own kill, by cause (memory
-- also when the cgroup counted an OOM kill: the core's end kind)
local supervisor_kill = {
	wall = "wall", output = "output", memory = "memory", tasks = "tasks",
	cpu = "cpu",
}

-- Linux signal numbers (the same on x86-64, arm64 and riscv64)
local signames = { [9] = "SIGKILL", [24] = "SIGXCPU", [25] = "SIGXFSZ", [31] = "SIGSYS" }

--- The name of a death's or a run's signal: its `signame`, else the name
-- of its `signal` number among the limits' signals.
-- @tparam table t `signame` or `signal`
-- @treturn string|nil
function M.signame(t) return t.signame or signames[t.signal] end
local signame = M.signame

--- The limit that the kernel's own record of one process's death shows
-- it reached, or nil.  A signal alone is never evidence: any process of
-- the box can send itself SIGXCPU, SIGXFSZ or SIGKILL.
--
-- - SIGXCPU: the process's CPU time, on the clock the kernel checks
--   RLIMIT_CPU against, is at least the soft limit (`ceil(lim.cpu)`);
-- - SIGKILL: that CPU time is at least the hard limit (a second more);
-- - SIGXFSZ: a regular file in a writable mount of the box has reached
--   the file size limit, and the process's RLIMIT_FSIZE at death is that
--   limit where its record could be read (`record ~= false`: a process
--   the proc connector saw may be reaped before its record is read).
-- @tparam table d a death of the core result (`deaths[i]`): `signal` or
--  `signame`, `cpu` (seconds), `file_size` (its RLIMIT_FSIZE),
--  `file_at_limit`, `record`
-- @tparam[opt] table lim the limits in force (default `M.defaults`)
-- @treturn string|nil `"cpu"`, `"file_size"` or nil
function M.death_cause(d, lim)
	argcheck(d, "table", 1, "death_cause")
	lim = lim or M.defaults
	local sig = signame(d)
	if (sig == "SIGXCPU" or sig == "SIGKILL") and d.cpu and lim.cpu then
		local at = ceil(lim.cpu) + (sig == "SIGKILL" and 1 or 0)
		if d.cpu >= at then return M.CAUSE.CPU end
	elseif sig == "SIGXFSZ" and d.file_at_limit and lim.file_size
		and (d.file_size == lim.file_size or d.record == false) then
		return M.CAUSE.FILE_SIZE
	end
	return nil
end

--- The command's own death in a run's `deaths`, or nil.
-- @tparam table run a core result
-- @treturn table|nil
function M.command_death(run)
	for _, d in ipairs(run.deaths or {}) do
		if d.command then return d end
	end
	return nil
end

--- Which limit stopped a run, if any: only on evidence, never on how close
-- a measure came to a limit.  A command that exits, with any status, is
-- never reclassified: that is its own result.
-- @tparam table run `outcome` (`"exit"`, `"signal"`, `"wall"`, `"output"`,
--  `"memory"`, `"tasks"`, `"cpu"`, `"cannot"`, `"lost"`, `"init"`,
--  `"interrupted"`), `signal` (a number) or `signame`, `oom_kill` (the
--  cgroup's count of OOM kills) and `deaths` (the core's records; the one
--  with `command` is the command's, see `M.death_cause`)
-- @tparam[opt] table lim the limits in force (default `M.defaults`)
-- @treturn string|nil one of `M.CAUSE`, or nil: not a limit
function M.classify(run, lim)
	argcheck(run, "table", 1, "classify")
	lim = lim or M.defaults
	local cause = supervisor_kill[run.outcome]
	if cause then return cause end
	-- the cgroup's OOM killer (with memory.oom.group, init goes too)
	if (run.oom_kill or 0) > 0 and (run.outcome == "init" or run.outcome == "lost"
		or (run.outcome == "signal" and signame(run) == "SIGKILL")) then
		return M.CAUSE.MEMORY
	end
	if run.outcome ~= "signal" then return nil end
	local d = M.command_death(run)
	if not d then return nil end
	return M.death_cause({ signal = run.signal, signame = run.signame, cpu = d.cpu,
		file_size = d.file_size, file_at_limit = d.file_at_limit }, lim)
end

--- Which limit the kernel's record shows a SIGXCPU or SIGXFSZ was not:
-- `"cpu"` (the process's CPU time was below the cpu limit), `"file_size"`
-- (no file of the box reached the file size limit, and every file was
-- looked at); nil for another signal or without a record to tell.
-- @tparam table d the death (see `M.death_cause`)
-- @tparam[opt] table lim the limits in force (default `M.defaults`)
-- @treturn string|nil one of `M.CAUSE`
function M.not_limit(d, lim)
	argcheck(d, "table", 1, "not_limit")
	lim = lim or M.defaults
	local sig = signame(d)
	if sig == "SIGXCPU" then
		return d.cpu and lim.cpu and M.CAUSE.CPU or nil
	end
	-- only what the search looked for, all of it: a file of the size
	-- the box's limit sets
	if sig == "SIGXFSZ" and lim.file_size
		and (d.file_size == lim.file_size or d.record == false)
		and d.file_at_limit == false and not d.files_partial then
		return M.CAUSE.FILE_SIZE
	end
	return nil
end

--- Whether the death of a process of the box other than the command is
-- noted, and the limit it names: on the kernel's record, a limit
-- (`M.death_cause`); for SIGXCPU and SIGXFSZ that record names no limit,
-- the note says what it shows (`M.not_limit`) or the signal alone.  A
-- SIGKILL is noted only at a limit (every process left at the box's end
-- gets one), a SIGSYS never.
-- @tparam table d the death (see `M.death_cause`)
-- @tparam[opt] table lim the limits in force (default `M.defaults`)
-- @treturn boolean noted
-- @treturn string|nil the cause it names (one of `M.CAUSE`)
function M.noted(d, lim)
	argcheck(d, "table", 1, "noted")
	local cause = M.death_cause(d, lim)
	if cause then return true, cause end
	local sig = signame(d)
	return sig == "SIGXCPU" or sig == "SIGXFSZ", nil
end

-- ---- enforcement ----

--- How each limit of a run was enforced: `"cgroup"` (the kernel, for the
-- whole box), `"rlimit"` (the kernel, per process), `"sampled"` (the
-- supervisor reads the box every few ms and kills it), `"supervisor"`
-- (counted exactly by the supervisor: time, bytes of output), `"tmpfs"`
-- (the size of /tmp), `"userns"` (the kernel, for the box's user namespace
-- as a whole) or `"none"`.  The core decides for the limits of the whole
-- box (it makes the box's cgroup or not) and says so in its result
-- (`run.enforcement`: memory, tasks, cpu, wall, output); the others are
-- the kernel's, set in the spec (`M.rlimits`, `M.sysctl`, the /tmp size).
-- A cpu limit the core does not sample is RLIMIT_CPU's alone.
-- @tparam table run a core result
-- @treturn table name -> enforcement
function M.enforcement(run)
	argcheck(run, "table", 1, "enforcement")
	local t = {
		open_files = "rlimit", file_size = "rlimit",
		core = "rlimit", tmp = "tmpfs",
		pending_signals = "rlimit", msgqueue = "rlimit",
		inotify_instances = "userns", inotify_watches = "userns",
	}
	for k, v in pairs(run.enforcement or {}) do t[k] = v end
	if t.cpu == nil or t.cpu == "none" then t.cpu = "rlimit" end
	return t
end

--- The per-process backstop for memory: RLIMIT_DATA at this factor of the
-- limit plus `DATA_EXTRA` bytes, so that one process cannot run far past
-- the limit between two samples.
M.DATA_FACTOR = 1.25
M.DATA_EXTRA = 32 * M.MiB

--- The `memory_backstop` of a box spec for the limits: RLIMIT_DATA, soft
-- and hard, that the core gives every process when it samples the memory
-- limit (no cgroup of the box holds it).
-- @tparam table lim resolved limits (see `M.resolve`)
-- @treturn integer bytes
function M.memory_backstop(lim)
	return floor(lim.memory * M.DATA_FACTOR) + M.DATA_EXTRA
end

--- RLIMIT_NPROC is this many times the task limit (see `M.rlimits`).
M.NPROC_FACTOR = 2

--- The standard values of the resource limits that no operator limit
-- sets (docs/limits.md), so that none of the caller's reaches the box:
-- `{soft, hard}`, a number or `"unlimited"`; `stack`'s hard limit is the
-- memory limit (filled in by `M.rlimits`).
M.fixed_rlimits = {
	stack = { 8 * M.MiB, "memory" },
	memlock = { 8 * M.MiB, 8 * M.MiB },
	as = { "unlimited", "unlimited" },
	rss = { "unlimited", "unlimited" },
	locks = { "unlimited", "unlimited" },
	nice = { 0, 0 },
	rtprio = { 0, 0 },
	rttime = { "unlimited", "unlimited" },
}

-- v, or the caller's hard limit h when that is lower (a process in a user
-- namespace cannot raise a hard limit)
local function clamp(v, h)
	if h == nil or h == "unlimited" then return v end
	if v == "unlimited" or v > h then return h end
	return v
end

--- The `rlimits` of a box spec (`core.box{rlimits = ...}`) for the limits:
-- every resource limit the kernel has, so that nothing of the caller's
-- limits reaches the box.
-- CPU gets a soft limit at the budget rounded up to whole seconds
-- (SIGXCPU) and a hard one a second later (SIGKILL, for a process that
-- ignores SIGXCPU): a per-process backstop behind the sampler, which
-- holds the whole box to the exact budget (`M.death_cause` reads a
-- process's death against these same values).  The limits of
-- `M.fixed_rlimits` (and `nproc` and `data` where not set from a limit)
-- are lowered to the caller's hard limit where that is lower: no process
-- in a user namespace can raise a hard limit.  The operator's limits are
-- not: a caller that cannot give them gets a box that is not set up.
-- @tparam table lim resolved limits (see `M.resolve`)
-- `data` is unlimited (to the caller's hard limit): when the core samples
-- the memory limit it sets `M.memory_backstop` instead.
-- @tparam[opt] table opts `host_root` (`nproc` unlimited: not applied to
--  uid 0), `caller_hard` (name -> the caller's hard limit, a number or
--  `"unlimited"`), `arg_bytes` (the size execve needs for the command's
--  arguments and environment: the stack's soft limit is at least four
--  times that)
-- @treturn table
function M.rlimits(lim, opts)
	opts = opts or {}
	local hard = opts.caller_hard or {}
	local cpu = ceil(lim.cpu)
	local r = {
		cpu = { cpu, cpu + 1 },
		fsize = lim.file_size,
		nofile = lim.open_files,
		core = lim.core,
		-- counted per user namespace and again for the host id: the box's
		-- count never passes these, so the host id keeps the rest
		sigpending = lim.pending_signals,
		msgqueue = lim.msgqueue,
	}
	-- a backstop: the sampler stops the box at the limit itself (with
	-- RLIMIT_NPROC at the limit, forks fail there and the count seen
	-- between two samples hovers just below it, so a bomb would never be
	-- named); the kernel holds a runaway at twice the limit
	if not opts.host_root then r.nproc = lim.tasks * M.NPROC_FACTOR end
	local fixed = {}
	for k, v in pairs(M.fixed_rlimits) do fixed[k] = v end
	if opts.host_root then fixed.nproc = { "unlimited", "unlimited" } end
	fixed.data = { "unlimited", "unlimited" }
	-- execve takes at most a quarter of the stack limit for the arguments
	-- and environment: a command line longer than the standard stack
	-- allows gets the stack it needs (from the command line, never from
	-- the caller's own limit)
	local need = opts.arg_bytes and ceil(opts.arg_bytes * 4 / M.MiB + 1) * M.MiB
	if need and need > fixed.stack[1] then fixed.stack = { need, fixed.stack[2] } end
	for k, v in pairs(fixed) do
		local soft, hi = v[1], v[2] == "memory" and lim.memory or v[2]
		hi = clamp(hi, hard[k])
		soft = clamp(clamp(soft, hard[k]), hi ~= "unlimited" and hi or nil)
		r[k] = { soft, hi }
	end
	return r
end

--- SysV IPC limits for a box's own IPC namespace (`M.ipc_sysctl`):
-- `shmmni` segments at most; messages of at most `msgmax` bytes, queues of
-- `msgmnb` bytes, and as many queues as keep their worst case (one-byte
-- messages, each a `msg_cost`-byte kernel record; `msgmnb` also caps a
-- queue's message count) at `1/msg_share` of the memory limit.
M.ipc = { shmmni = 256, msgmax = 8192, msgmnb = 16384, msg_cost = 64, msg_share = 8 }

--- Bytes of a page: the unit of `kernel.shmall` (x86-64).
M.PAGE = 4096

--- The `sysctl` of a box spec (`core.box{sysctl = ...}`) for the limits:
-- the inotify limits of the box's own user namespace.  The kernel counts
-- inotify instances and watches per user of each user namespace and again
-- in every parent, so these hold the box to its share of the host id's
-- (`/proc/sys/user/max_inotify_*` of the host).
-- @tparam table lim resolved limits (see `M.resolve`)
-- @treturn table
function M.sysctl(lim)
	return {
		["user.max_inotify_instances"] = lim.inotify_instances,
		["user.max_inotify_watches"] = lim.inotify_watches,
	}
end

--- SysV IPC limits derived from the memory limit, as `sysctl` entries of a
-- box spec: shared memory in all held to the memory limit (`shmall`, and
-- `shmmax` per segment), message queues to an eighth of it (`M.ipc`).
-- The kernel lets only uid 0 of the IPC namespace's user namespace write
-- these (when it is unmapped: host root), so they serve a box that maps
-- its uid 0 (`uid = 0` in its spec); the standard box runs as uid 1000
-- and its init cannot write them (EACCES, docs/kernel-notes.md): there the
-- sampler counts SysV IPC instead.
-- @tparam table lim resolved limits (see `M.resolve`)
-- @treturn table
function M.ipc_sysctl(lim)
	local mem, ipc = type(lim) == "table" and lim.memory, M.ipc
	if mtype(mem) ~= "integer" or mem <= 0 then
		error("bad argument #1 to 'ipc_sysctl' (resolved limits with a memory limit expected)", 2)
	end
	local queues = mem // (ipc.msg_share * ipc.msgmnb * ipc.msg_cost)
	return {
		["kernel.shmmax"] = mem,
		["kernel.shmall"] = (mem + M.PAGE - 1) // M.PAGE,
		["kernel.shmmni"] = ipc.shmmni,
		["kernel.msgmax"] = ipc.msgmax,
		["kernel.msgmnb"] = ipc.msgmnb,
		["kernel.msgmni"] = queues < 1 and 1 or queues > 32000 and 32000 or queues,
	}
end

return M
