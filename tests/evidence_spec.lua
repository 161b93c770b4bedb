-- SPDX-License-Identifier: MIT
-- A limit is named only on evidence: sbxlua stopped the box for it, or the
-- kernel's own record of the dead process says so.  Each test runs a real
-- box (as root and as uid 65534) and checks the report line byte for byte
-- and the exit code; a program that sends itself a limit's signal, or dies
-- close to a limit, is reported as what it is.
local core = require "sbx.core"
local report = require "sbx.report"
local S = require "support"
local cjson = require "cjson"

local T = "build/tests/"
local MiB = 1024 * 1024

local json_run = S.json_run

local function last_line(s) return s:match("([^\n]*\n)$") end

-- a shell line that starts cmd as an orphan (the box's init reaps it) and
-- returns once it has ended: the orphan holds the pipe to cat open until
-- it dies
local function orphan(cmd) return "(exec 3>&1; " .. cmd .. " &) | cat" end

-- runs `sbxlua run.lua args...`: the report must be line, the exit
-- status 128 + sig
local function expect_killed(sig, line, ...)
	local _, err, code = S.runlua(...)
	assert.are.equal(line, err)
	assert.are.equal(128 + sig, code)
end

describe("evidence: a limit's signal sent by the program itself [" .. S.priv .. "]", function()
	it("kill -XCPU $$ is a signal, before the cpu limit", function()
		local _, err, code, res = json_run("/bin/sh", "-c", "kill -XCPU $$")
		assert.are.equal("sandbox: killed: signal 24 (SIGXCPU) before the cpu limit (30 s)\n", err)
		assert.are.equal(128 + 24, code)
		assert.are.same({}, res.deaths.notable)
	end)

	it("kill -XFSZ $$ is a signal, with no file at the file size limit", function()
		expect_killed(25, "sandbox: killed: signal 25 (SIGXFSZ) with no file at the file size limit (64 MiB)\n",
			"/bin/sh", "-c", "kill -XFSZ $$")
	end)

	it("a file just under the size limit is no evidence either", function()
		expect_killed(25, "sandbox: killed: signal 25 (SIGXFSZ) with no file at the file size limit (1 MiB)\n",
			"--fsize", "1M", "/bin/sh", "-c",
			"head -c 1048575 /dev/zero > /work/f && kill -XFSZ $$")
	end)

	it("kill -SYS $$ is a signal, not a refused call", function()
		expect_killed(31, "sandbox: killed: signal 31 (SIGSYS)\n",
			"/bin/sh", "-c", "kill -SYS $$")
	end)

	it("kill -KILL $$ is a signal", function()
		expect_killed(9, "sandbox: killed: signal 9 (SIGKILL)\n",
			"/bin/sh", "-c", "kill -KILL $$")
	end)

	it("a SIGKILL of its own at 235 MiB of a 256 MiB limit is not the memory limit", function()
		local _, err, code, res = json_run("--mem", "256M", T .. "selfkill", "KILL", "0", "235")
		assert.are.equal("sandbox: killed: signal 9 (SIGKILL)\n", err)
		assert.are.equal(128 + 9, code)
		print(("\n[%s] self-kill near the memory limit: peak seen %.1f MiB of 256 MiB"):format(
			S.priv, (res.measured.memory_peak or 0) / MiB))
	end)

	it("a SIGXCPU of its own at 1.9 s of a 2 s budget is not the cpu limit", function()
		expect_killed(24, "sandbox: killed: signal 24 (SIGXCPU) before the cpu limit (2 s)\n",
			"--cpu", "2", T .. "selfkill", "XCPU", "1900", "0")
	end)

	it("a SIGKILL of its own near the cpu budget is not the cpu limit", function()
		expect_killed(9, "sandbox: killed: signal 9 (SIGKILL)\n",
			"--cpu", "1", T .. "selfkill", "KILL", "900", "0")
	end)

	it("a descendant's own SIGXFSZ is noted without naming the limit", function()
		local _, err, code, res = json_run("--fsize", "1M", "/bin/sh", "-c",
			orphan("sh -c 'kill -XFSZ $$'"))
		assert.are.equal("sandbox: exit 0\n"
			.. "sandbox: note: a process was killed by SIGXFSZ with no file at the file size limit (1 MiB)\n", err)
		assert.are.equal(0, code)
		assert.are.equal(1, #res.deaths.notable)
		assert.is_nil(res.deaths.notable[1].limit)
		assert.are.equal("init", res.deaths.notable[1].seen)
	end)

	it("a child's own SIGXFSZ, reaped by its parent, is noted without naming the limit", function()
		-- no file at the limit: the search in the box before its end
		-- found none; sh reaps the child itself (the proc connector sees it)
		local _, err, code, res = json_run("--fsize", "1M", "/bin/sh", "-c",
			"head -c 1048575 /dev/zero > /work/f; sh -c 'kill -XFSZ $$'; exit 0")
		assert.are.equal(0, code)
		if res.deaths.coverage ~= "all" then
			pending("the proc connector is not available here: " .. tostring(res.deaths.reason))
			return
		end
		assert.are.equal("sandbox: exit 0\n"
			.. "sandbox: note: a process was killed by SIGXFSZ with no file at the file size limit (1 MiB)\n",
			err:match("(sandbox: .*)$"))
		local n = res.deaths.notable[1]
		assert.are.equal(1, #res.deaths.notable)
		assert.are.equal("SIGXFSZ", n.signame)
		assert.are.equal("connector", n.seen)
		assert.is_nil(n.limit)
		assert.is_false(n.is_command)
	end)
end)

describe("evidence: the real limits are still named [" .. S.priv .. "]", function()
	it("a busy loop under --cpu 1 is the cpu limit (SIGXCPU at the soft limit)", function()
		local _, err, code, res = json_run("--cpu", "1", "/bin/sh", "-c", "while :; do :; done")
		assert.are.equal("sandbox: killed: cpu limit (1 s)\n", err)
		assert.are.equal(124, code)
		-- the kernel's SIGXCPU at the soft limit, or the sampler's kill
		-- at the box-wide budget (the same second): then no death is noted
		local n = res.deaths.notable[1]
		if n == nil then
			assert.are.equal("cpu", res.outcome)
			return
		end
		assert.is_truthy(({ sh = 1, dash = 1 })[n.command], n.command)
		n.command = nil
		assert.are.same({ signal = 24, signame = "SIGXCPU", limit = "cpu", is_command = true,
			pid = 2, seen = "init" }, n)
	end)

	it("a spinner that ignores SIGXCPU is the cpu limit (SIGKILL at the hard limit)", function()
		local _, err, code = S.runlua("--cpu", "1", T .. "selfkill", "KILL", "-1", "0", "ignore")
		assert.are.equal("sandbox: killed: cpu limit (1 s)\n", err)
		assert.are.equal(124, code)
	end)

	it("a write past --fsize is the file size limit", function()
		local _, err, code = S.runlua("--fsize", "1M", "dd", "if=/dev/zero", "of=/work/big",
			"bs=64k", "count=64", "status=none")
		assert.are.equal("sandbox: killed: file size limit (1 MiB)\n", err)
		assert.are.equal(124, code)
	end)
end)

describe("evidence: how descendants ended [" .. S.priv .. "]", function()
	it("notes a descendant killed at the file size limit", function()
		local _, err, code, res = json_run("--fsize", "1M", "/bin/sh", "-c",
			orphan("head -c 5M /dev/zero >/work/big"))
		assert.are.equal("sandbox: exit 0\n"
			.. "sandbox: note: a process was killed by SIGXFSZ at the file size limit (1 MiB)\n", err)
		assert.are.equal(0, code)
		assert.is_truthy(({ all = 1, init = 1 })[res.deaths.coverage], res.deaths.coverage)
		assert.are.equal(0, res.deaths.unseen)
		local n = res.deaths.notable[1]
		assert.are.equal("init", n.seen) -- an orphan: init reaped it, once
		assert.are.equal(1, #res.deaths.notable)
		assert.are.equal("head", n.command)
		assert.are.equal(25, n.signal)
		assert.are.equal("SIGXFSZ", n.signame)
		assert.are.equal("file_size", n.limit)
		assert.is_false(n.is_command)
		assert.is_true(n.pid > 2)
		-- the note is in the events too, as the report line says it
		local ev = res.events[2]
		assert.are.equal("note", ev.kind)
		assert.are.equal(MiB, ev.limit)
	end)

	it("names the cpu limit for a descendant that reaches it", function()
		-- one spinner: its own RLIMIT_CPU (the budget, 1 s) and the
		-- box-wide budget the sampler holds are reached at the same
		-- moment, and either may act first; each names the limit
		local _, err, code = S.runlua("--cpu", "1", "/bin/sh", "-c",
			orphan("sh -c 'while :; do :; done'"))
		local note = "sandbox: note: a process was killed by SIGXCPU at the cpu limit (1 s)\n"
		if code == 0 then
			assert.are.equal("sandbox: exit 0\n" .. note, err)
		else
			-- the sampler's kill; the spinner's own SIGXCPU may have
			-- come just before it, and is then noted too: at the limit
			-- when init read its record, or only by its signal when the
			-- kill took init first (the proc connector saw the death,
			-- not its CPU: the report claims no more)
			assert.are.equal(124, code)
			if err ~= "sandbox: killed: cpu limit (1 s)\n"
				and err ~= "sandbox: killed: cpu limit (1 s)\nsandbox: note: a process was killed by SIGXCPU\n" then
				assert.are.equal("sandbox: killed: cpu limit (1 s)\n" .. note, err)
			end
		end
	end)

	it("notes a process reaped by its own parent at the file size limit", function()
		-- sh waits for head itself: the box's init never sees head; the
		-- proc connector does, and the box's init finds the file at the
		-- limit before the box ends
		local _, err, code, res = json_run("--fsize", "1M", "/bin/sh", "-c",
			"head -c 5M /dev/zero > /work/big")
		assert.are.equal(153, code)
		if res.deaths.coverage ~= "all" then
			-- without the connector the report claims nothing more
			assert.are.equal("sandbox: exit 153\n", last_line(err))
			assert.are.equal("init", res.deaths.coverage)
			assert.are.same({}, res.deaths.notable)
			pending("the proc connector is not available here: " .. tostring(res.deaths.reason))
			return
		end
		assert.are.equal("sandbox: exit 153\n"
			.. "sandbox: note: a process was killed by SIGXFSZ at the file size limit (1 MiB)\n",
			err:match("(sandbox: .*)$"))
		assert.is_nil(res.deaths.reason)
		assert.are.equal(0, res.deaths.unseen)
		local n = res.deaths.notable[1]
		assert.are.equal(1, #res.deaths.notable)
		assert.are.equal(25, n.signal)
		assert.are.equal("SIGXFSZ", n.signame)
		assert.are.equal("file_size", n.limit)
		assert.are.equal("connector", n.seen)
		assert.is_false(n.is_command)
		-- its name is read at its execve and its pid in the box from its
		-- zombie, each only while it is there to be read
		assert.is_true(n.command == nil or n.command == "head", n.command)
		assert.is_true(n.pid == nil or n.pid > 2)
		print(("\n[%s] head reaped by sh: name %s, pid in the box %s"):format(S.priv,
			tostring(n.command), tostring(n.pid)))
		local ev = res.events[2]
		assert.are.equal("note", ev.kind)
		assert.are.equal(MiB, ev.limit)
	end)

	it("notes every child of a fork-heavy box that died of SIGXCPU", function()
		-- four spinners that lowered their own soft RLIMIT_CPU to 1 s
		-- (the kernel's SIGXCPU, not the box's limit), under a box budget
		-- of 10 s, reaped by the shell's wait: each is noted
		-- before the cpu limit where its zombie's CPU time could be read
		-- before the shell reaped it, else by its signal only
		local _, err, code, res = json_run("--cpu", "10", "/bin/sh", "-c",
			"i=0; while [ $i -lt 200 ]; do /bin/true; i=$((i+1)); done; "
			.. "for i in 1 2 3 4; do sh -c 'ulimit -S -t 1; while :; do :; done' & done; wait")
		assert.are.equal(0, code)
		if res.deaths.coverage ~= "all" then
			pending("the proc connector is not available here: " .. tostring(res.deaths.reason))
			return
		end
		local lines, read = {}, 0
		for l in err:gmatch("[^\n]+") do
			if l:find("^sandbox: ") then lines[#lines + 1] = l end
		end
		assert.are.equal("sandbox: exit 0", lines[1])
		assert.are.equal(5, #lines)
		for i = 2, 5 do
			local l = lines[i]
			assert.is_true(l == "sandbox: note: a process was killed by SIGXCPU"
				or l == "sandbox: note: a process was killed by SIGXCPU before the cpu limit (10 s)", l)
			if l:find("before the cpu limit", 1, true) then read = read + 1 end
		end
		assert.are.equal(4, #res.deaths.notable)
		for _, n in ipairs(res.deaths.notable) do
			assert.are.equal("SIGXCPU", n.signame)
			assert.are.equal("connector", n.seen)
			assert.is_nil(n.limit)
		end
		print(("\n[%s] fork-heavy box: %d of 4 SIGXCPU deaths with their CPU time read, %d events"):format(
			S.priv, read, res.measured.proc_events or -1))
	end)
end)

describe("evidence: the cgroup's OOM kill [" .. S.priv .. "]", function()
	it("is the memory limit, never a lost box", function()
		-- the kernel's record, as the core passes it on
		for _, r in ipairs {
			{ outcome = "lost", oom_kill = 1 },
			{ outcome = "init", signal = 9, signame = "SIGKILL", oom_kill = 3 },
			{ outcome = "signal", signal = 9, signame = "SIGKILL", oom_kill = 1 },
			{ outcome = "memory", oom_kill = 1 },
		} do
			local ev = report.events(r, { limits = { memory = 16 * MiB } })
			assert.are.equal("killed: memory limit (16 MiB)", report.line(ev[1]))
			assert.are.equal(124, report.exit_code(ev))
		end
	end)

	it("of a real box under memory.max", function()
		local p = assert(core.cgroup_probe())
		if not (p.usable and p.controllers.memory) then
			pending("no cgroup v2 memory controller here (" .. (p.note or p.reason)
				.. "): the kernel's OOM kill of a box (memory.oom.group takes its init "
				.. "too) is not verified on this host")
			return
		end
		local _, err, code = S.runlua("--mem", "16M", T .. "hog_mem", "64")
		assert.are.equal("sandbox: killed: memory limit (16 MiB)\n", err)
		assert.are.equal(124, code)
	end)
end)

describe("evidence: where the proc connector is not used [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	-- the standard box's sh -c head case, run in this process
	local function head_box(proc_events)
		local sbx = require "sbx"
		local stdbox = require "sbx.stdbox"
		local spec, info = assert(stdbox.build { prog = "/bin/sh",
			args = { "-c", "head -c 5M /dev/zero > /work/big" },
			limits = { file_size = "1M" }, stdin = "" })
		spec.stdout, spec.stderr = "capture", "capture"
		spec.proc_events = proc_events
		local r = assert(sbx.run(spec))
		local ev = report.events(r, info)
		local lines = {}
		for i, e in ipairs(ev) do lines[i] = report.line(e) end
		return lines, report.deaths(r, info), r
	end

	it("a spec without it keeps init's coverage and says why", function()
		local lines, d, r = head_box(false)
		assert.are.same({ "exit 153" }, lines)
		assert.are.equal("init", d.coverage)
		assert.are.equal("proc connector: not asked", d.reason)
		assert.are.same({}, d.notable)
		assert.are.equal(0, r.proc_events)
	end)

	it("the same box with it notes head's death", function()
		local lines, d, r = head_box(true)
		if d.coverage ~= "all" then
			pending("the proc connector is not available here: " .. tostring(d.reason))
			return
		end
		assert.are.same({ "exit 153",
			"note: a process was killed by SIGXFSZ at the file size limit (1 MiB)" }, lines)
		assert.is_true(r.proc_events > 0)
	end)

	it("a supervisor in a pid namespace apart keeps init's coverage and says why", function()
		if S.euid() ~= 0 then
			pending("only root makes a pid namespace without a user namespace here; in one of "
				.. "its own, uid 65534's sbxlua is uid 0 there, whose box needs a host id it "
				.. "does not map")
			return
		end
		local j = os.tmpname()
		local out = S.sh("unshare -p --fork --mount-proc " .. S.bin .. " run.lua --json " .. j
			.. " --fsize 1M /bin/sh -c 'head -c 5M /dev/zero > /work/big' 2>&1 </dev/null")
		local res = cjson.decode(S.read(j) or "null")
		os.remove(j)
		assert.are.equal("sandbox: exit 153\n", last_line(out))
		assert.are.equal("init", res.deaths.coverage)
		assert.are.equal("proc connector: no answer to the subscription", res.deaths.reason)
		assert.are.same({}, res.deaths.notable)
	end)
end)
