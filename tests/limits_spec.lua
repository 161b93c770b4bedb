-- SPDX-License-Identifier: MIT
-- sbx.limits: parsers, enforcement and the classification
-- thresholds, each checked on both sides.  Pure Lua: the same as root and
-- as uid 65534.
local L = require "sbx.limits"

local MiB, GiB = L.MiB, L.GiB

describe("limits.parse_size", function()
	it("reads plain bytes and binary units", function()
		assert.are.equal(4096, L.parse_size("4096"))
		assert.are.equal(4096, L.parse_size(4096))
		assert.are.equal(100, L.parse_size("100B"))
		assert.are.equal(64 * 1024, L.parse_size("64KiB"))
		assert.are.equal(64 * 1024, L.parse_size("64K"))
		assert.are.equal(64 * 1024, L.parse_size("64k"))
		assert.are.equal(512 * MiB, L.parse_size("512M"))
		assert.are.equal(512 * MiB, L.parse_size("512MiB"))
		assert.are.equal(GiB, L.parse_size("1G"))
		assert.are.equal(GiB, L.parse_size(" 1 GiB "))
		assert.are.equal(3 * GiB // 2, L.parse_size("1.5G"))
		assert.are.equal(1024 * GiB, L.parse_size("1T"))
		assert.are.equal(1024, L.parse_size(1024.0))
		assert.are.equal("integer", math.type(L.parse_size("1.5G")))
	end)

	it("refuses zero unless asked, and negatives", function()
		local v, err = L.parse_size("0")
		assert.is_nil(v)
		assert.matches("must be above 0", err)
		assert.are.equal(0, L.parse_size("0", true))
		assert.are.equal(0, L.parse_size(0, true))
		v, err = L.parse_size(-1, true)
		assert.is_nil(v)
		assert.matches("0 or more", err)
		assert.is_nil((L.parse_size("-1M")))
	end)

	it("refuses what it cannot read, saying why", function()
		local cases = {
			{ "", "bad size ''" },
			{ "abc", "bad size 'abc'" },
			{ "12 34", "bad size" },
			{ "5X", "bad unit 'X'" },
			{ "5MB", "ambiguous unit" },
			{ "5kb", "ambiguous unit" },
			{ "0.3K", "not a whole number of bytes" },
			{ "1.5", "not a whole number of bytes" },
			{ "99999999999T", "out of range" },
		}
		for _, c in ipairs(cases) do
			local v, err = L.parse_size(c[1])
			assert.is_nil(v, c[1])
			assert.matches(c[2], err, 1, true)
		end
		assert.is_nil((L.parse_size(0 / 0)))
		assert.is_nil((L.parse_size(math.huge)))
		assert.is_nil((L.parse_size(1.5)))
	end)

	it("raises on a value that is neither number nor string", function()
		assert.has_error(function() L.parse_size({}) end,
			"bad size (a table): expected a number or a string")
		assert.has_error(function() L.parse_size(nil) end)
	end)
end)

describe("limits.parse_duration", function()
	it("reads seconds and units", function()
		assert.are.equal(30, L.parse_duration("30"))
		assert.are.equal(30, L.parse_duration(30))
		assert.are.equal(1.5, L.parse_duration("1.5s"))
		assert.are.equal(0.5, L.parse_duration("500ms"))
		assert.are.equal(0.25, L.parse_duration(".25"))
		assert.are.equal(120, L.parse_duration("2m"))
		assert.are.equal(120, L.parse_duration("2min"))
		assert.are.equal(3600, L.parse_duration("1h"))
		assert.are.equal(0.001, L.parse_duration(0.001))
	end)

	it("refuses non-positive values", function()
		for _, v in ipairs { "0", 0, -1, "0s", "0.0", "0ms" } do
			local r, err = L.parse_duration(v)
			assert.is_nil(r, tostring(v))
			assert.matches("must be above 0", err)
		end
	end)

	it("refuses what it cannot read", function()
		for _, c in ipairs {
			{ "", "bad duration" }, { "soon", "bad duration" },
			{ "-5", "bad duration" }, { "1.", "bad duration" },
			{ "5d", "bad unit 'd'" }, { "3 x", "bad unit 'x'" },
			{ "1e9", "bad duration" },
		} do
			local r, err = L.parse_duration(c[1])
			assert.is_nil(r, c[1])
			assert.matches(c[2], err, 1, true)
		end
		assert.is_nil((L.parse_duration(1e8)))
		assert.is_nil((L.parse_duration(0 / 0)))
		assert.is_nil((L.parse_duration(math.huge)))
		assert.has_error(function() L.parse_duration(true) end)
	end)
end)

describe("limits.parse_count and parse", function()
	it("reads whole numbers only", function()
		assert.are.equal(128, L.parse_count("128"))
		assert.are.equal(128, L.parse_count(128))
		assert.are.equal(1, L.parse_count(1))
		assert.is_nil((L.parse_count(0)))
		assert.are.equal(0, L.parse_count(0, true))
		assert.is_nil((L.parse_count("1.5")))
		assert.is_nil((L.parse_count(1.5)))
		assert.is_nil((L.parse_count("-3")))
		assert.is_nil((L.parse_count("12k")))
		assert.is_nil((L.parse_count(1 << 31)))
	end)

	it("parses a named limit by its kind and names it in errors", function()
		assert.are.equal(64 * MiB, L.parse("memory", "64M"))
		assert.are.equal(90, L.parse("wall", "1.5m"))
		assert.are.equal(10, L.parse("tasks", "10"))
		assert.are.equal(0, L.parse("core", 0))
		local v, err = L.parse("memory", "0")
		assert.is_nil(v)
		assert.are.equal("limit 'memory': size '0' must be above 0", err)
		v, err = L.parse("tasks", 0)
		assert.is_nil(v)
		assert.matches("^limit 'tasks': ", err)
		v, err = L.parse("memroy", "1G")
		assert.is_nil(v)
		assert.are.equal("unknown limit 'memroy'", err)
		-- a tmpfs holds at least a page: a usage error, never the spec's
		-- range error (a traceback) at run time
		v, err = L.parse("tmp", "1")
		assert.is_nil(v)
		assert.are.equal("limit 'tmp': '1' is less than 4096 bytes (a page)", err)
		assert.are.equal(4096, L.parse("tmp", "4K"))
	end)

	it("refuses a tmpfs under a page on the command line, as a usage error (126)", function()
		local S = require "support"
		local out, code = S.sh(S.bin .. " run.lua --tmp-size 1 /bin/true 2>&1; echo \"rc=$?\"")
		assert.truthy(out:find("sbxlua: --tmp-size 1: limit 'tmp': '1' is less than 4096 bytes (a page)\nrc=126\n",
			1, true), out .. code)
		out = S.sh(S.bin .. " run.lua --tmp /x:100 /bin/true 2>&1; echo \"rc=$?\"")
		assert.truthy(out:find("sbxlua: --tmp /x:100: limit 'tmp': '100' is less than 4096 bytes (a page)\nrc=126\n",
			1, true), out)
	end)

	it("resolves overrides over the defaults", function()
		local t = assert(L.resolve { memory = "1G", wall = "2m" })
		assert.are.equal(GiB, t.memory)
		assert.are.equal(120, t.wall)
		assert.are.equal(30, t.cpu)
		assert.are.equal(512 * MiB, L.defaults.memory) -- untouched
		local v, err = L.resolve { cpu = "fast" }
		assert.is_nil(v)
		assert.matches("^limit 'cpu': bad duration 'fast'", err)
		assert.is_nil((L.resolve { nosuch = 1 }))
		assert.has_error(function() L.resolve("1G") end)
	end)

	it("has the standard defaults", function()
		assert.are.same({
			wall = 60, cpu = 30, memory = 512 * MiB, tasks = 128,
			output = 16 * MiB, open_files = 256, file_size = 64 * MiB,
			core = 0, tmp = 64 * MiB, pending_signals = 1024, msgqueue = 256 * 1024,
			inotify_instances = 8, inotify_watches = 8192,
		}, L.defaults)
		for _, name in ipairs(L.names) do
			assert.is_not_nil(L.kinds[name], name)
			assert.is_not_nil(L.defaults[name], name)
		end
	end)
end)

describe("limits.classify", function()
	local lim = L.defaults

	-- a run the command ended by a signal, with init's record of its death
	local function died(sig, name, record)
		local d = { command = true, pid = 2, name = "prog", signal = sig, signame = name }
		for k, v in pairs(record or {}) do d[k] = v end
		return { outcome = "signal", signal = sig, signame = name, deaths = { d } }
	end

	it("has no proximity rules left", function()
		assert.is_nil(L.MEMORY_FRACTION)
		assert.is_nil(L.CPU_SLACK)
	end)

	it("never reclassifies an exit, whatever was measured", function()
		for _, code in ipairs { 0, 1, 137, 152, 153 } do
			assert.is_nil(L.classify({ outcome = "exit", code = code,
				memory_peak = lim.memory * 2, cpu = lim.cpu * 2, oom_kill = 1 }))
		end
		assert.is_nil(L.classify({ outcome = "cannot" }))
		assert.is_nil(L.classify({ outcome = "lost" }))
	end)

	it("names the supervisor's own kills by their cause", function()
		for outcome, cause in pairs { wall = "wall", output = "output",
			memory = "memory", tasks = "tasks", cpu = "cpu" } do
			assert.are.equal(cause, L.classify({ outcome = outcome }))
		end
	end)

	it("memory: only the cgroup's OOM kill count, never how much was sampled", function()
		local near = died(9, "SIGKILL")
		near.memory_peak = lim.memory
		assert.is_nil(L.classify(near, lim))
		assert.is_nil(L.classify({ outcome = "signal", signal = 9, signame = "SIGKILL",
			memory_peak = lim.memory * 2 }, lim))
		-- the cgroup counted an OOM kill: memory, for the command's
		-- SIGKILL, and for a box whose init went too (memory.oom.group)
		local oom = died(9, "SIGKILL")
		oom.oom_kill = 1
		assert.are.equal("memory", L.classify(oom, lim))
		assert.are.equal("memory", L.classify({ outcome = "init", signal = 9, oom_kill = 2 }, lim))
		assert.are.equal("memory", L.classify({ outcome = "lost", oom_kill = 1 }, lim))
		assert.is_nil(L.classify({ outcome = "lost", oom_kill = 0 }, lim))
		assert.is_nil(L.classify({ outcome = "signal", signal = 11, signame = "SIGSEGV",
			oom_kill = 1 }, lim))
	end)

	it("cpu: SIGXCPU at the soft limit, SIGKILL at the hard one, on the process's CPU time", function()
		assert.are.equal("cpu", L.classify(died(24, "SIGXCPU", { cpu = 30 }), lim))
		assert.are.equal("cpu", L.classify(died(24, "SIGXCPU", { cpu = 30.004 }), lim))
		assert.is_nil(L.classify(died(24, "SIGXCPU", { cpu = 29.999 }), lim))
		assert.is_nil(L.classify(died(24, "SIGXCPU", { cpu = 0 }), lim))
		assert.are.equal("cpu", L.classify(died(9, "SIGKILL", { cpu = 31 }), lim))
		assert.is_nil(L.classify(died(9, "SIGKILL", { cpu = 30.5 }), lim))
		-- the signal alone, without init's record, is no evidence
		assert.is_nil(L.classify({ outcome = "signal", signal = 24, signame = "SIGXCPU" }, lim))
		assert.is_nil(L.classify({ outcome = "signal", signal = 24, cpu = 100 }, lim))
		-- a budget of 1.5 s is a soft limit of 2 s (whole seconds)
		local frac = assert(L.resolve { cpu = "1.5" })
		assert.is_nil(L.classify(died(24, "SIGXCPU", { cpu = 1.9 }), frac))
		assert.are.equal("cpu", L.classify(died(24, "SIGXCPU", { cpu = 2 }), frac))
	end)

	it("file size: SIGXFSZ with a file at the limit the process still had", function()
		local at = { file_size = lim.file_size, file_at_limit = true }
		assert.are.equal("file_size", L.classify(died(25, "SIGXFSZ", at), lim))
		assert.is_nil(L.classify(died(25, "SIGXFSZ", { file_size = lim.file_size,
			file_at_limit = false }), lim))
		-- a file at a lower limit the program set itself
		assert.is_nil(L.classify(died(25, "SIGXFSZ", { file_size = 4096,
			file_at_limit = true }), lim))
		assert.is_nil(L.classify({ outcome = "signal", signal = 25 }, lim))
		assert.is_nil(L.classify(died(15, "SIGTERM", at), lim))
	end)

	it("a SIGSYS is never named: nothing tells the filter's kill from kill -SYS", function()
		assert.is_nil(L.classify(died(31, "SIGSYS", { cpu = 100 }), lim))
		assert.is_nil(L.death_cause({ signal = 31 }, lim))
	end)

	it("names the limit a limit's signal was not, on the record", function()
		local small = assert(L.resolve { cpu = "2", file_size = "1M" })
		assert.are.equal("cpu", L.not_limit({ signame = "SIGXCPU", cpu = 1.92 }, small))
		assert.are.equal("file_size",
			L.not_limit({ signame = "SIGXFSZ", file_size = MiB, file_at_limit = false }, small))
		-- a search that stopped early, or for another size, says nothing
		assert.is_nil(L.not_limit({ signame = "SIGXFSZ", file_size = MiB,
			file_at_limit = false, files_partial = true }, small))
		assert.is_nil(L.not_limit({ signame = "SIGXFSZ", file_size = 4096,
			file_at_limit = false }, small))
		assert.is_nil(L.not_limit({ signame = "SIGXCPU" }, small))
		assert.is_nil(L.not_limit({ signame = "SIGKILL", cpu = 1 }, small))
	end)

	it("notes another process's death by a limit's signal, a SIGKILL only at a limit", function()
		local small = assert(L.resolve { cpu = "2" })
		assert.are.same({ true, "cpu" }, { L.noted({ signal = 24, cpu = 2.1 }, small) })
		assert.are.same({ true }, { L.noted({ signame = "SIGXCPU" }, small) })
		assert.are.same({ false }, { L.noted({ signame = "SIGKILL", cpu = 0.5 }, small) })
		assert.are.same({ false }, { L.noted({ signame = "SIGSYS" }, small) })
		assert.has_error(function() L.noted(nil) end)
	end)

	it("checks its arguments", function()
		assert.has_error(function() L.classify(nil) end)
		assert.has_error(function() L.death_cause(nil) end)
	end)
end)

describe("limits enforcement and rlimits", function()
	it("reads the core's enforcement from a result, the kernel's for the rest", function()
		local core_says = { memory = "cgroup", tasks = "cgroup", cpu = "sampled",
			wall = "supervisor", output = "supervisor" }
		local e = L.enforcement { enforcement = core_says }
		for k, v in pairs(core_says) do assert.are.equal(v, e[k], k) end
		e = L.enforcement { enforcement = { memory = "sampled", tasks = "sampled", cpu = "sampled",
			wall = "supervisor", output = "supervisor" } }
		assert.are.equal("sampled", e.memory)
		assert.are.equal("sampled", e.tasks)
		-- no budget the core samples: RLIMIT_CPU per process alone
		e = L.enforcement { enforcement = { memory = "none", tasks = "none", cpu = "none",
			wall = "supervisor", output = "supervisor" } }
		assert.are.equal("none", e.memory)
		assert.are.equal("none", e.tasks)
		for _, k in ipairs { "cpu", "open_files", "file_size", "core", "pending_signals", "msgqueue" } do
			assert.are.equal("rlimit", e[k], k)
		end
		assert.are.equal("userns", e.inotify_instances)
		assert.are.equal("userns", e.inotify_watches)
		for _, name in ipairs(L.names) do assert.is_not_nil(e[name], name) end
		assert.are.equal("supervisor", e.wall)
		assert.are.equal("supervisor", e.output)
		assert.are.equal("tmpfs", e.tmp)
		assert.has_error(function() L.enforcement(nil) end,
			"bad argument #1 to 'enforcement' (table expected, got nil)")
	end)

	it("builds the rlimits of a box spec", function()
		local r = L.rlimits(L.defaults)
		assert.are.same({ 30, 31 }, r.cpu)
		assert.are.equal(64 * MiB, r.fsize)
		assert.are.equal(256, r.nofile)
		assert.are.equal(0, r.core)
		assert.are.equal(2 * 128, r.nproc) -- the backstop
		-- the core sets the backstop when it samples the memory limit
		assert.are.same({ "unlimited", "unlimited" }, r.data)
		assert.are.equal(640 * MiB + 32 * MiB, L.memory_backstop(L.defaults))
		assert.are.equal(1024, r.sigpending)
		assert.are.equal(256 * 1024, r.msgqueue)
		r = L.rlimits(assert(L.resolve { cpu = 1.5 }), { host_root = true })
		assert.are.same({ 2, 3 }, r.cpu)
		-- a fractional budget: the backstop is rounded up, the sampler
		-- holds the box to the budget itself
		assert.are.same({ 1, 2 }, L.rlimits(assert(L.resolve { cpu = 0.1 })).cpu)
		assert.are.same({ "unlimited", "unlimited" }, r.nproc)
		-- every resource limit the core knows is set
		for _, name in ipairs(require("sbx.core").rlimit_names()) do
			assert.is_not_nil(r[name], name)
		end
		assert.are.same({ 8 * MiB, 512 * MiB }, r.stack)
		assert.are.same({ 0, 0 }, r.rtprio)
		-- a caller's lower hard limit bounds the fixed ones, not the operator's
		r = L.rlimits(L.defaults, { caller_hard = { stack = 4 * MiB, locks = 77, as = "unlimited",
			nofile = 100 } })
		assert.are.same({ 4 * MiB, 4 * MiB }, r.stack)
		assert.are.same({ 77, 77 }, r.locks)
		assert.are.same({ "unlimited", "unlimited" }, r.as)
		assert.are.equal(256, r.nofile)
	end)

	it("builds the sysctl of a box spec: the inotify limits", function()
		assert.are.same({ ["user.max_inotify_instances"] = 8, ["user.max_inotify_watches"] = 8192 },
			L.sysctl(L.defaults))
		local lim = assert(L.resolve { inotify_instances = "3", inotify_watches = 100 })
		assert.are.same({ ["user.max_inotify_instances"] = 3, ["user.max_inotify_watches"] = 100 },
			L.sysctl(lim))
		assert.matches("must be above 0", select(2, L.resolve { inotify_instances = 0 }))
	end)
end)
