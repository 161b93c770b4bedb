-- SPDX-License-Identifier: MIT
-- core.cgroup_probe, core.cgroup_create and core.sample against the real
-- kernel: what the probe says is compared with what the test reads itself
-- from /proc and /sys, and the sampler is checked against process trees
-- and hogs (tests/progs/hog_*.c) whose size the test knows.
-- scripts/test.sh runs this file as root and as uid 65534.
local core = require "sbx.core"
local S = require "support"

local MiB = 1024 * 1024

local read = S.read

local function exists(path)
	local f = io.open(path)
	if f then f:close() end
	return f ~= nil
end

local function words(s)
	local t = {}
	for w in (s or ""):gmatch("%S+") do t[w] = true end
	return t
end

-- The cgroup2 mount point as /proc/self/mountinfo lists it.
local function v2_mount()
	for l in (read("/proc/self/mountinfo") or ""):gmatch("[^\n]+") do
		local mp = l:match("^%S+ %S+ %S+ %S+ (%S+) .* %- cgroup2 ")
		if mp then return mp end
	end
end

local function own_cgroup()
	return (read("/proc/self/cgroup") or ""):match("\n?0::([^\n]*)")
end

-- Starts cmd under io.popen; its first line is "ready PID" or "PID".
local function start(cmd)
	local f = assert(io.popen(cmd, "r"))
	local line = f:read("l") or ""
	local pid = tonumber(line:match("(%d+)"))
	assert(pid, "no pid from: " .. cmd)
	return pid, f
end

-- Like start, for a shell that prints its pid, then waits for go() before
-- it runs script: what the test must do first (attach it to a cgroup) is
-- done before the script forks, however slowly the machine runs.
local function start_gated(script)
	local mark = os.tmpname()
	os.remove(mark)
	local pid, f = start("echo $$; while [ ! -e " .. S.q(mark) .. " ]; do sleep 0.01; done; rm -f "
		.. S.q(mark) .. "; " .. script)
	return pid, f, function() assert(io.open(mark, "w")):close() end
end

-- Ends what start() started: the pid given, by its id, and its children.
local function stop(pid, f)
	local kids = read("/proc/" .. pid .. "/task/" .. pid .. "/children") or ""
	os.execute("kill -KILL " .. pid .. " " .. kids .. " 2>/dev/null")
	f:close()
end

-- the command that runs build/tests/ARGS (a hog of tests/progs)
local function hog_cmd(args)
	assert(exists("build/tests/hog_mem"), "build/tests/hog_* missing: run make")
	return "exec build/tests/" .. args
end

local function hog(args)
	return start(hog_cmd(args))
end

-- a cgroup of the given limits holding what script runs (started gated,
-- let go once attached) and start's pipe; nil, the test pending, when the
-- controller (named what in the reason) is not usable here
local function limited(controller, what, limits, script)
	local p = assert(core.cgroup_probe())
	if not (p.usable and p.controllers[controller]) then
		pending(what .. " not verified because " .. (p.note or p.reason))
		return nil
	end
	local cg = assert(core.cgroup_create(limits))
	local pid, f, go = start_gated(script)
	assert(cg:attach(pid))
	go()
	return cg, f
end

-- one sample of what cmd (a shell command that prints its pid first)
-- started, which is then stopped
local function sample_of(cmd)
	local pid, f = start(cmd)
	local s = assert(core.sample(pid))
	stop(pid, f)
	return s
end

local function within(lo, hi, v, what)
	assert(v >= lo and v <= hi, string.format("%s: %d not in [%d, %d]", what, v, lo, hi))
end

describe("cgroup_probe [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	it("checks its argument", function()
		assert.has_error(function() core.cgroup_probe({}) end)
		assert.has_error(function() core.cgroup_probe("relative/dir") end,
			"bad argument #1 to 'cgroup_probe' (the base must be an absolute path)")
	end)

	it("agrees with /proc and /sys about this host", function()
		local p = assert(core.cgroup_probe())
		local mount = v2_mount()
		assert.are.equal(mount ~= nil, p.v2)
		assert.are.equal(mount, p.mount)
		for _, t in ipairs { p.controllers, p.available } do
			for _, k in ipairs { "memory", "pids", "cpu" } do
				assert.is_boolean(t[k], k)
			end
		end
		if not p.usable then
			assert.is_string(p.reason)
			assert.is_nil(p.note)
			return
		end
		-- a usable base: every claim read back from the kernel's files
		assert.is_string(p.base)
		assert.are.equal(mount, p.base:sub(1, #mount))
		local sub = words(read(p.base .. "/cgroup.subtree_control"))
		local avail = words(read(p.base .. "/cgroup.controllers"))
		for _, k in ipairs { "memory", "pids", "cpu" } do
			assert.are.equal(sub[k] == true, p.controllers[k], "enabled " .. k)
			assert.are.equal(avail[k] == true, p.available[k], "available " .. k)
		end
		if p.base ~= mount then
			assert.are.equal(exists(p.base .. "/cgroup.kill"), p.kill)
		end
		if not (p.controllers.memory and p.controllers.pids) then
			assert.is_string(p.note)
		end
	end)

	it("picks the base the rules say for this user", function()
		local p = assert(core.cgroup_probe())
		if not p.v2 then
			assert.is_false(p.usable)
			assert.matches("no cgroup v2", p.reason)
			return
		end
		local own = own_cgroup()
		if own and own ~= "/" and p.source == "own" then
			assert.are.equal(p.mount .. own, p.base)
		elseif S.euid() == 0 then
			assert.are.equal("created", p.source)
			assert.are.equal(p.mount .. "/sbxlua", p.base)
			assert.is_true(p.usable)
			-- it never holds a process, so its controllers could be enabled
			assert.are.equal("", read(p.base .. "/cgroup.procs"))
		else
			-- uid 65534 in the host's root cgroup: nothing it may write
			assert.is_false(p.usable)
			assert.is_nil(p.base)
			assert.matches("only root creates", p.reason)
			assert.matches("delegate", p.reason)
		end
	end)

	it("refuses an explicit base that is not a cgroup v2 directory", function()
		local p = assert(core.cgroup_probe("/tmp"))
		assert.is_false(p.usable)
		assert.are.equal("explicit", p.source)
		assert.are.equal("/tmp is not a cgroup v2 directory", p.reason)
		local r, msg, err = core.cgroup_probe("/nonexistent/sbxlua-base")
		assert.is_nil(r)
		assert.are.equal("cgroup base /nonexistent/sbxlua-base: No such file or directory", msg)
		assert.are.equal(core.errno.ENOENT, err)
		r, msg, err = core.cgroup_probe("/etc/passwd")
		assert.is_nil(r)
		assert.matches("Not a directory", msg)
		assert.are.equal(core.errno.ENOTDIR, err)
	end)

	it("makes no box under a named base that is not usable; a run says how it held each limit", function()
		-- the failure names the spec's field it concerns as a value
		local r, msg, err, field = core.box(S.spec("true", { cgroup = "/tmp", memory_limit = 64 * MiB }))
		assert.is_nil(r)
		assert.are.equal("cgroup base /tmp: /tmp is not a cgroup v2 directory", msg)
		assert.are.equal(core.errno.EOPNOTSUPP, err)
		assert.are.equal("cgroup", field)
		r, msg, err, field = core.box(S.spec("true", { cgroup = "/nonexistent/sbxlua-base" }))
		assert.is_nil(r)
		assert.are.equal("cgroup base /nonexistent/sbxlua-base: No such file or directory", msg)
		assert.are.equal(core.errno.ENOENT, err)
		assert.are.equal("cgroup", field)
		-- no cgroup asked for: the core samples what it holds
		r = S.run("true", { cgroup = false, memory_limit = 64 * MiB, task_limit = 16 })
		assert.are.same({ memory = "sampled", tasks = "sampled", cpu = "none", wall = "supervisor",
			output = "supervisor" }, r.enforcement)
		assert.is_nil(r.cgroup_base)
		-- a base found here: a cgroup exactly where its controllers are
		local p = assert(core.cgroup_probe())
		r = S.run("true", { cgroup = true, memory_limit = 64 * MiB, task_limit = 16, cpu_limit = 5,
			wall = 30, output_limit = MiB })
		local ctl = p.usable and p.controllers or {}
		assert.are.same({ memory = ctl.memory and "cgroup" or "sampled",
			tasks = ctl.pids and "cgroup" or "sampled", cpu = "sampled", wall = "supervisor",
			output = "supervisor" }, r.enforcement)
		assert.are.equal(p.usable and not r.cgroup_error and p.base or nil, r.cgroup_base)
	end)

	it("says why the v2 root is unusable, or uses it, as the user may", function()
		local mount = v2_mount()
		if not mount then
			pending("no cgroup v2 mount on this host")
			return
		end
		local p = assert(core.cgroup_probe(mount))
		assert.are.equal("explicit", p.source)
		if S.euid() == 0 then
			assert.is_true(p.usable)
		else
			assert.is_false(p.usable)
			assert.matches("not writable", p.reason)
		end
	end)
end)

describe("cgroup_create [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	it("checks its arguments", function()
		assert.has_error(function() core.cgroup_create() end)
		assert.has_error(function() core.cgroup_create { memroy = 1 } end,
			"bad argument #1 to 'cgroup_create' (unknown key 'memroy')")
		assert.has_error(function() core.cgroup_create { memory = -1 } end)
		assert.has_error(function() core.cgroup_create { base = "rel" } end)
	end)

	it("fails with the probe's reason where no base is usable", function()
		local p = assert(core.cgroup_probe())
		if p.usable then
			local cg, msg, err = core.cgroup_create { base = "/tmp" }
			assert.is_nil(cg)
			assert.are.equal("cgroup: /tmp is not a cgroup v2 directory", msg)
			assert.are.equal(core.errno.EOPNOTSUPP, err)
			return
		end
		local cg, msg, err = core.cgroup_create { memory = 64 * MiB }
		assert.is_nil(cg)
		assert.are.equal("cgroup: " .. p.reason, msg)
		assert.are.equal(core.errno.EOPNOTSUPP, err)
	end)

	it("creates a box cgroup, kills all of it and removes it", function()
		local p = assert(core.cgroup_probe())
		if not p.usable then
			pending("box cgroups not verified because " .. p.reason)
			return
		end
		local cg = assert(core.cgroup_create { memory = 64 * MiB, pids = 16 })
		local dir = cg:path()
		assert.matches("^" .. p.base:gsub("%p", "%%%0") .. "/box%-%d+%-%d+$", dir)
		assert.are.equal("", read(dir .. "/cgroup.procs"))
		local lim = cg:limited()
		assert.are.equal(p.controllers.memory, lim.memory)
		assert.are.equal(p.controllers.pids, lim.pids)
		if lim.memory then
			assert.are.equal(tostring(64 * MiB) .. "\n", read(dir .. "/memory.max"))
			assert.are.equal("1\n", read(dir .. "/memory.oom.group"))
		end
		if lim.pids then
			assert.are.equal("16\n", read(dir .. "/pids.max"))
		end
		-- a shell that forks only after it was moved in
		local pid, f, go = start_gated("sleep 20 & sleep 20 & echo forked; wait")
		assert(cg:attach(pid))
		go()
		assert.are.equal("forked", f:read("l"))
		local procs = {}
		for n in read(dir .. "/cgroup.procs"):gmatch("%d+") do procs[#procs + 1] = n end
		assert.are.equal(3, #procs)
		local s = assert(cg:sample())
		assert.are.equal(3, s.processes)
		-- the same tree read the other way (its memory moves meanwhile:
		-- the children may still be exec'ing)
		local t = assert(core.sample(pid))
		assert.are.same({ s.processes, s.tasks }, { t.processes, t.tasks })
		local ev = assert(cg:events())
		assert.are.equal(1, ev.populated)
		assert(cg:kill())
		local _, how, sig = f:close()
		assert.are.equal("signal", how)
		assert.are.equal(9, sig)
		-- every member is gone, not only the shell
		for _ = 1, 1500 do
			if read(dir .. "/cgroup.procs") == "" then break end
			os.execute("sleep 0.02")
		end
		assert.are.equal("", read(dir .. "/cgroup.procs"))
		ev = assert(cg:events())
		assert.are.equal(0, ev.populated)
		assert.is_true(ev.cpu_usec >= 0)
		assert.is_true(cg:remove())
		assert.is_false(exists(dir .. "/cgroup.procs"))
		assert.is_true(cg:remove()) -- idempotent
		assert.has_error(function() cg:kill() end, "attempt to use a removed cgroup")
		assert.are.equal("sbx.cgroup (removed)", tostring(cg))
	end)

	it("enforces memory.max with an OOM kill of the group", function()
		local cg <close>, f = limited("memory", "memory.max", { memory = 16 * MiB },
			"exec build/tests/hog_mem 64")
		if not cg then return end
		f:read("a")
		local _, how, sig = f:close()
		assert.are.same({ "signal", 9 }, { how, sig })
		local ev = assert(cg:events())
		assert.is_true(ev.oom_kill >= 1)
		assert.is_true(ev.memory_peak <= 16 * MiB)
	end)

	it("enforces pids.max", function()
		local cg <close>, f = limited("pids", "pids.max", { pids = 4 }, "exec build/tests/hog_threads 10 1 2>&1")
		if not cg then return end
		local out = f:read("a")
		f:close()
		assert.matches("pthread_create failed", out)
		assert.is_true(assert(cg:events()).pids_max >= 1)
	end)
end)

describe("sample [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	it("checks its argument and fails as the contract says", function()
		assert.has_error(function() core.sample("x") end)
		assert.has_error(function() core.sample(0) end,
			"bad argument #1 to 'sample' (not a pid)")
		local r, msg, err = core.sample(2147483647)
		assert.is_nil(r)
		assert.are.equal("sample 2147483647: No such process", msg)
		assert.are.equal(core.errno.ESRCH, err)
	end)

	it("counts a shell and its two children", function()
		-- the pid is printed once both children are forked
		local s = sample_of("sleep 20 & sleep 20 & echo $$; wait")
		assert.are.equal(3, s.processes)
		assert.are.equal(3, s.tasks)
		assert.is_false(s.truncated)
		assert.are.equal(s.rss_anon + s.rss_shmem, s.memory)
		within(1, 16 * MiB, s.memory, "memory of three small processes")
	end)

	it("counts private memory as RssAnon", function()
		local s = sample_of(hog_cmd("hog_mem 64 anon 20"))
		assert.are.equal(1, s.processes)
		within(64 * MiB, 72 * MiB, s.memory, "64 MiB hog")
		within(64 * MiB, 72 * MiB, s.rss_anon, "64 MiB hog, anon")
		within(0, 1 * MiB, s.rss_shmem, "64 MiB hog, shmem")
	end)

	it("counts shared memory as RssShmem", function()
		local s = sample_of(hog_cmd("hog_mem 32 shm 20"))
		within(32 * MiB, 33 * MiB, s.rss_shmem, "32 MiB shared hog")
		within(32 * MiB, 40 * MiB, s.memory, "32 MiB shared hog")
	end)

	it("counts threads as tasks of one process", function()
		local s = sample_of(hog_cmd("hog_threads 15 20"))
		assert.are.equal(1, s.processes)
		assert.are.equal(16, s.tasks)
	end)

	it("follows orphans re-parented to a reaper", function()
		local pid, f = hog("hog_tree 20 20")
		local s = assert(core.sample(pid))
		os.execute("kill -TERM " .. pid) -- hog_tree ends its whole group
		f:close()
		assert.are.equal(21, s.processes)
		assert.are.equal(21, s.tasks)
	end)

	it("samples a live box from its host pid, orphans included", function()
		-- a child lua runs the box; the box init is that child's only child
		local script = table.concat({
			"package.path = " .. string.format("%q", package.path),
			"package.cpath = " .. string.format("%q", package.cpath),
			"local S = require 'support'",
			"io.write(S.pid(), '\\n') io.stdout:flush()",
			"S.run('sleep 20 & (sleep 20 &); sleep 20 & echo started; wait', { wall = 20 })",
		}, "\n")
		local tmp = os.tmpname()
		local fh = assert(io.open(tmp, "w"))
		fh:write(script)
		fh:close()
		local lua, f = start("exec " .. S.lua .. " " .. tmp)
		local init
		for _ = 1, 1500 do -- 30 s at most, on a loaded machine
			init = (read("/proc/" .. lua .. "/task/" .. lua .. "/children") or ""):match("%d+")
			if init then break end
			os.execute("sleep 0.02")
		end
		assert(init, "no box init under " .. lua)
		local function children()
			local n = 0
			for _ in (read("/proc/" .. init .. "/task/" .. init .. "/children") or ""):gmatch("%d+") do
				n = n + 1
			end
			return n
		end
		-- until the shell has started everything and the subshell that
		-- left the orphan is gone (for a moment there are five processes
		-- with the subshell still there and the last sleep not yet)
		local s, n
		for _ = 1, 1500 do
			s = assert(core.sample(tonumber(init)))
			n = children()
			if s.processes >= 5 and n >= 2 then break end
			os.execute("sleep 0.02")
		end
		-- init, sh, two sleeps of sh, and the orphan now a child of init
		assert.are.equal(5, s.processes)
		assert.are.equal(5, s.tasks)
		assert.are.equal(2, n) -- sh and the orphan
		os.execute("kill -KILL " .. init)
		f:close()
		os.remove(tmp)
	end)
end)
