-- SPDX-License-Identifier: MIT
-- A batch spread over worker processes (sbx.spread, sbx.core.worker): a
-- worker killed mid-batch loses no program, a worker that lies is killed
-- and its items recorded lost, the operator's SIGTERM and SIGINT stop
-- every worker and leave whole lines, the lines come in the programs'
-- order; the cores sbxlua may use (sbx.core.cpus).
-- scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"
local core = require "sbx.core"
local spread = require "sbx.spread"
local cjson = require "cjson"

local write = S.write

-- the children of a process (/proc/PID/task/PID/children)
local function children(pid)
	local t = {}
	for c in (S.read(("/proc/%d/task/%d/children"):format(pid, pid)) or ""):gmatch("%d+") do
		t[#t + 1] = tonumber(c)
	end
	return t
end

-- a live process's start time (its pid and this name it); nil when gone
-- or dead (a zombie: reparented, it waits for its new parent's wait)
local function start_time(pid)
	local st = S.read(("/proc/%d/stat"):format(pid))
	local state, t = (st or ""):match("^.*%) (%S+)" .. (" %S+"):rep(18) .. " (%d+)")
	return state ~= "Z" and t or nil
end

-- starts `sbxlua batch.lua ARGS` in the background; returns its pid and
-- a function that waits for its exit status (a string)
local function start(args, err)
	local p = assert(io.popen(("env --default-signal=INT %s batch.lua %s 2>%s </dev/null & echo $!; wait $!; echo $?")
		:format(S.bin, args, S.q(err))))
	local pid = tonumber(p:read("l"))
	return pid, function()
		local status = p:read("l")
		p:close()
		return status
	end
end

-- the workers of a batch, once it has started them all
local function workers(pid, n)
	local w
	repeat
		if w then os.execute("sleep 0.02") end
		assert(S.read(("/proc/%d/stat"):format(pid)), "the batch ended before its workers were seen")
		w = {}
		for _, c in ipairs(children(pid)) do
			if (S.read(("/proc/%d/cmdline"):format(c)) or ""):find(spread.FLAG, 1, true) then w[#w + 1] = c end
		end
	until #w >= n
	return w
end

describe("sbx.spread [" .. S.priv .. "]", function()
	local dir, done
	before_each(function() dir, done = S.tmpdir() end)
	after_each(function() done() end)

	-- n programs that each sleep for real (no sleep skipped)
	local function sleepers(n, secs)
		os.execute("mkdir " .. S.q(dir .. "/progs"))
		for i = 1, n do
			write(("%s/progs/p%02d.sh"):format(dir, i), ("#!/bin/sh\n# %d\nexec sleep %s\n"):format(i, secs), "755")
		end
	end

	it("a worker killed by SIGKILL mid-batch loses no program: each recorded once, in the programs' order", function()
		sleepers(8, "0.3")
		local o = dir .. "/out.jsonl"
		local pid, wait = start(("-j 2 --progress never --sleep-skip 0 --output %s %s")
			:format(S.q(o), S.q(dir .. "/progs")), dir .. "/err")
		local w = workers(pid, math.min(2, (core.cpus())))
		-- the event: a first program recorded (both workers hold items)
		while #S.lines(S.read(o) or "") < 1 do os.execute("sleep 0.05") end
		-- its box's init, a child of the worker's supervisor
		local boxes = {}
		for _, b in ipairs(children(w[1])) do boxes[b] = start_time(b) end
		assert(os.execute("kill -KILL " .. w[1]))
		assert.are.equal("0", wait(), S.read(dir .. "/err"))
		local names = {}
		for _, l in ipairs(S.lines(S.read(o) or "")) do
			local r = cjson.decode(l)
			assert.are.equal("exit", r.outcome, l)
			names[#names + 1] = r.program:match("[^/]+$")
		end
		assert.are.same({ "p01.sh", "p02.sh", "p03.sh", "p04.sh", "p05.sh", "p06.sh", "p07.sh", "p08.sh" }, names)
		-- the killed worker is gone, and its box with it (PDEATHSIG)
		assert.is_nil(S.read(("/proc/%d/cmdline"):format(w[1])))
		for b, t in pairs(boxes) do
			assert.is_true(start_time(b) ~= t, "box init " .. b .. " outlived its worker")
		end
	end)

	it("a worker per CPU: each kept on its own, its boxes' programs on every CPU", function()
		local n, affinity = core.cpus()
		if n ~= affinity or n < 2 then
			-- a cgroup quota below the affinity's count: no worker is kept
			return pending(("%d of %d CPUs usable: the workers are not kept on one each"):format(n, affinity))
		end
		-- each program: the CPUs it may run on, as its exit status, after
		-- long enough for the host to look at it
		os.execute("mkdir " .. S.q(dir .. "/progs"))
		for i = 1, 2 * n do
			write(("%s/progs/p%02d.sh"):format(dir, i), ("#!/bin/sh\n# %d\nc=$(nproc)\nsleep 1\nexit $c\n"):format(i), "755")
		end
		local o = dir .. "/out.jsonl"
		local pid, wait = start(("-j %d --progress never --sleep-skip 0 --output %s %s")
			:format(n, S.q(o), S.q(dir .. "/progs")), dir .. "/err")
		local function cpus(p)
			return (S.read(("/proc/%d/status"):format(p)) or ""):match("Cpus_allowed_list:%s*(%S+)")
		end
		local all = cpus(pid)
		local kept, boxes = {}, 0
		for _, w in ipairs(workers(pid, n)) do
			-- once its box runs (the worker keeps itself on its CPU
			-- before its first box): its box's init and the command under
			-- it on every CPU, the worker on one; looked at while the
			-- batch runs (each program sleeps a second), however slow the
			-- machine
			while S.read(("/proc/%d/stat"):format(pid)) do
				local inits = children(w)
				local cmd = inits[1] and children(inits[1])[1]
				local ci, cc = inits[1] and cpus(inits[1]), cmd and cpus(cmd)
				local c = cpus(w)
				if ci and cc and c then
					assert.are.equal(all, ci)
					assert.are.equal(all, cc)
					assert.truthy(c:match("^%d+$"), "worker on " .. c)
					assert.is_nil(kept[c], "two workers on CPU " .. c)
					kept[c] = true
					boxes = boxes + 1
					break
				end
				os.execute("sleep 0.02")
			end
		end
		assert.are.equal("0", wait(), S.read(dir .. "/err"))
		assert.are.equal(n, boxes, "a worker's box not seen while the batch ran")
		-- the kernel's view inside each box: nproc counts every CPU
		local lines = S.lines(S.read(o) or "")
		assert.are.equal(2 * n, #lines)
		for _, l in ipairs(lines) do
			assert.are.equal(affinity, cjson.decode(l).exit_code, l)
		end
	end)

	it("-j 4: a worker per core (at most 4), the boxes shared among them", function()
		sleepers(6, "0.3")
		local o = dir .. "/out.jsonl"
		local pid, wait = start(("-j 4 --progress never --sleep-skip 0 --output %s %s")
			:format(S.q(o), S.q(dir .. "/progs")), dir .. "/err")
		local n = math.min(4, (core.cpus()))
		local w = workers(pid, n)
		assert.are.equal("0", wait(), S.read(dir .. "/err"))
		assert.are.equal(n, #w)
		-- each ended with the batch
		for _, p in ipairs(w) do assert.is_nil(S.read(("/proc/%d/cmdline"):format(p))) end
		assert.are.equal(6, #S.lines(S.read(o) or ""))
	end)

	for _, sig in ipairs { { "TERM", "143" }, { "INT", "130" } } do
		it(("SIG%s to the batch at -j 2 stops every worker and leaves whole lines (%s)"):format(sig[1], sig[2]), function()
			os.execute("mkdir " .. S.q(dir .. "/progs"))
			for i = 1, 2 do write(("%s/progs/p%02d.sh"):format(dir, i), ("#!/bin/sh\necho %d\n"):format(i), "755") end
			for i = 3, 6 do write(("%s/progs/p%02d.sh"):format(dir, i), ("#!/bin/sh\n# %d\nexec sleep 600\n"):format(i), "755") end
			local o = dir .. "/out.jsonl"
			local pid, wait = start(("-j 2 --progress never --sleep-skip 0 --output %s %s")
				:format(S.q(o), S.q(dir .. "/progs")), dir .. "/err")
			local w = workers(pid, math.min(2, (core.cpus())))
			while #S.lines(S.read(o) or "") < 2 do os.execute("sleep 0.05") end
			assert(os.execute("kill -" .. sig[1] .. " " .. pid))
			assert.are.equal(sig[2], wait(), S.read(dir .. "/err"))
			local data = S.read(o)
			assert.are.equal("\n", data:sub(-1))
			for _, l in ipairs(S.lines(data)) do assert.are.equal("exit", cjson.decode(l).outcome) end
			assert.are.equal(2, #S.lines(data))
			assert.matches("batch: interrupted %(SIG" .. sig[1] .. "%)", S.read(dir .. "/err"))
			for _, p in ipairs(w) do assert.is_nil(S.read(("/proc/%d/cmdline"):format(p))) end
		end)
	end

	describe("a worker that lies", function()
		local items = {
			{ path = "a", sha256 = ("a"):rep(64), options = ("0"):rep(64) },
			{ path = "b", sha256 = ("b"):rep(64), options = ("0"):rep(64) },
		}
		-- a worker (the interpreter running this test, -e CODE) answering
		-- each item with the line that LIE(seq, item) makes
		local function liar(lie)
			return { "-e", [[
				local cjson = require "cjson"
				for l in io.lines() do
					local seq, text = l:match("^(%d+)\t(.*)$")
					local item = cjson.decode(text)
					io.write(]] .. lie .. [[, "\n")
					io.flush()
				end]] }
		end
		local function run(args)
			local got, lost = {}, {}
			local stopped = spread.run { items = items, args = args, count = 1,
				each = function(rec) got[#got + 1] = rec end,
				lost = function(item, why)
					lost[#lost + 1] = why
					return { program = item.path, outcome = "lost", why = why }
				end }
			return got, lost, stopped
		end
		local good = [[("R\t%s\t%s"):format(seq, cjson.encode { program = item.path, sha256 = item.sha256,
			options = item.options, verdict = "clean", outcome = "exit", severity = 0, reasons = {},
			timings = { elapsed = 0.1, cpu = 0.01 } })]]

		it("an honest one: each record in the items' order", function()
			local got, lost, stopped = run(liar(good))
			assert.is_nil(stopped)
			assert.are.same({}, lost)
			assert.are.same({ "a", "b" }, { got[1].program, got[2].program })
		end)

		for name, lie in pairs {
			["another program's record"] = good:gsub("program = item.path", 'program = "/etc/passwd"'),
			["a record of an item not given"] = good:gsub('%("R\\t%%s', '("R\\t9%%s'),
			["what is not JSON"] = [[("R\t%s\t{oops"):format(seq)]],
			["a verdict that is not a string"] = good:gsub('verdict = "clean"', "verdict = {}"),
			["an attack id that is not a string"] = good:gsub("reasons = {}", "reasons = { { attack = { {} } } }"),
			["a signal out of range"] = [[("I\t%s\t999"):format(seq)]],
			["a word of its own"] = [["hello"]],
		} do
			it(name .. ": killed, its items run again once, then recorded lost with why", function()
				local got, lost, stopped = run(liar(lie))
				assert.is_nil(stopped)
				assert.are.same({ "a", "b" }, { got[1].program, got[2].program })
				assert.are.same({ "lost", "lost" }, { got[1].outcome, got[2].outcome })
				assert.are.same({ "its worker answered what is not a record",
					"its worker answered what is not a record" }, lost)
			end)
		end

		it("one that dies at once: its items lost with its exit", function()
			local got, lost = run { "-e", "os.exit(3)" }
			assert.are.same({ "a", "b" }, { got[1].program, got[2].program })
			assert.are.same({ "its worker exited 3", "its worker exited 3" }, lost)
		end)
	end)

	describe("sbx.core", function()
		it("cpus: the affinity's cores, and fewer under taskset", function()
			local n, aff, quota = core.cpus()
			assert.is_true(n >= 1 and n <= aff)
			if quota then assert.is_true(n <= quota) end
			local out = S.sh("taskset -c 0 " .. S.bin .. [[ -e 'print((require "sbx.core".cpus()))']])
			assert.are.equal("1\n", out)
		end)

		it("pin_cpu: the k-th CPU of the set, modulo its count; a bad index refused", function()
			-- in a process of its own (this one stays where it is)
			local out = S.sh(S.bin .. [[ -e 'local c = require "sbx.core"; local cpu = c.pin_cpu(5); ]]
				.. [[local s = io.open("/proc/self/status"):read("a"); ]]
				.. [[print(cpu, s:match("Cpus_allowed_list:%s*(%S+)"))']])
			local n = select(2, core.cpus())
			local cpu, list = out:match("^(%d+)\t(%S+)\n$")
			assert.truthy(cpu, out)
			assert.are.equal(cpu, list)
			if n == tonumber((S.sh("nproc --all"))) then
				-- every CPU of the host in the set: the k-th is CPU k mod n
				assert.are.equal(tostring(5 % n), cpu)
			end
			for _, bad in ipairs { -1, 1024, 1.5, "x", false } do
				local ok, msg = pcall(core.pin_cpu, bad)
				assert.is_false(ok)
				assert.truthy(tostring(msg):find("bad argument #1 to '[%w.]*pin_cpu'"), msg)
			end
			assert.has_error(function() core.json_encode({}, "marker") end)
			assert.has_error(function() core.json_encode() end)
		end)

		it("the progress line says -j when given", function()
			assert.are.equal("batch: 3/10  1.5/s  ETA 5s  clean 2  (-j 2)",
				require("sbx.batch").progress(3, 10, 2, { clean = 2 }, 2))
		end)

		pending("cpus under a cgroup v2 cpu.max quota: this host's cpu controller is on cgroup v1 (hybrid)")

		it("validates its arguments", function()
			assert.has_error(function() core.worker("x") end)
			assert.has_error(function() core.worker({}) end)
			assert.has_error(function() core.worker({ 1 }) end)
			assert.has_error(function() core.worker({ "a\0b" }) end)
			assert.has_error(function() core.worker({ ("x"):rep(40000) }) end)
			assert.has_error(function() core.worker_read({ 1 }) end)
			assert.has_error(function() core.worker_read({}, -5) end)
			assert.has_error(function() core.hold_stops("yes") end)
			local w = assert(core.worker { "-e", "io.read('a')" })
			assert.has_error(function() w:kill(0) end)
			assert.has_error(function() w:send(nil) end)
			assert.has_error(function() w.send(nil, "x") end)
			w:close_input()
			assert.are.equal(0, w:wait().exit)
			assert.has_error(function() w:wait() end)
			w:close()
			assert.has_error(function() w:send("x") end)
			assert.has_error(function() spread.run { items = {}, args = {}, count = 0 } end)
		end)
	end)
end)
