-- SPDX-License-Identifier: MIT
-- Sleeps the analysis box skips (core/super/sleep.c; the threshold is
-- sbx.stdbox.ANALYSIS.sleep_skip): each way a program sleeps, in a box
-- whose only task sleeps (so the whole box waits: tests/skiptime_spec.lua
-- has the boxes where it does not), answered as if its time had run out,
-- what a hostile caller passes answered as the kernel answers it, short
-- sleeps and the jail's sleeps run; the report's note, the behaviour
-- summary and the sleeper rule.  Real boxes only: a run that skipped its
-- sleeps ends by itself well before its wall clock (a sleep that ran
-- would be killed there, outcome "wall").
-- scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"
local cjson = require "cjson"
local stdbox = require "sbx.stdbox"

local SLEEPS = "build/tests/sleeps"

-- run.lua --json with args; returns stdout, the report, the JSON
local function json_run(...)
	local out, err, code, res = S.json_run(...)
	assert.is_table(res, err)
	return out, err, code, res
end

local function sleeps_note(res) return S.note(res, "sleeps") end

describe("sleeps skipped [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	it("the threshold is one table's: the analysis box's", function()
		assert.are.equal(5, stdbox.ANALYSIS.sleep_skip)
		local spec = stdbox.build(stdbox.analysis { prog = "true", profile = "watch" })
		assert.are.equal(5000000000, spec.notify.sleep_skip)
		local jail = stdbox.build { prog = "true", profile = "watch" }
		assert.is_nil(jail.notify.sleep_skip)
	end)

	it("nanosleep, clock_nanosleep, select, pselect6, poll and ppoll of 600 s return at once, as timed out", function()
		local out, err, code, res = json_run("--explore", "--wall", "30", "--", SLEEPS, "all", "600")
		assert.are.equal(0, code, err)
		assert.are.equal("exit", res.outcome)
		-- 0 each; the time that remains written back as none; nanosleep's
		-- remainder left as it was (the kernel writes it only on EINTR)
		assert.are.equal("nanosleep 0 rem 7000000007\nclock_nanosleep 0\n"
			.. "clock_nanosleep_abs_monotonic 0\nclock_nanosleep_abs_realtime 0\n"
			.. "select 0 left 0\npselect6 0 left 0\npoll 0\nppoll 0 left 0\n", out)
		-- the absolute sleeps' lengths are what remained when read: the
		-- whole seconds may round one short on a loaded host
		local n = tonumber(err:match("sandbox: note: sleeps skipped: (%d+) s in 8 calls\n"))
		assert.is_true(n == 4800 or n == 4799, err)
		assert.are.same({ seconds = n, calls = 8 }, res.behaviour.sleeps_skipped)
	end)

	it("the time that remains is written where the task may write, a thread's too; a read-only one left", function()
		-- written through a pidfd in the task's /proc mem (sleep.c),
		-- which could write a read-only page: the kernel leaves it, so
		-- does the supervisor
		local host = S.sh(SLEEPS .. " back 0")
		assert.are.equal("select_ro 0 left 0\nthread_pselect6 0 left 0\n", host)
		local out, err, code = S.runlua("--explore", "--wall", "30", "--", SLEEPS, "back", "600")
		assert.are.equal(0, code, err)
		assert.are.equal("select_ro 0 left 600000000000\nthread_pselect6 0 left 0\n", out)
		assert.is_truthy(err:find("sleeps skipped: 1200 s in 2 calls\n", 1, true), err)
	end)

	-- the remaining time is written through a pidfd (core/super/pidfd.c),
	-- never by the number: a task killed and its number given to another
	-- process (forced with ns_last_pid, root only) is out of reach
	local reuse = "a task's pid handed to another process: the pidfd's /proc and write reach nothing; by number would"
	if S.euid() == 0 then
		it(reuse, function()
			local out, code = S.sh("build/tests/pidreuse")
			assert.are.equal(0, code, out)
			assert.are.equal("before 0\nproc -3\nwrite -3\nword 1\nby_pid 8\nword 9\n", out)
		end)
	else
		pending(reuse .. ": needs root (ns_last_pid of the host's pid namespace)")
	end

	it("a hostile timeout gets the kernel's own answer; a sleep of years returns", function()
		local out, err, code = S.runlua("--explore", "--wall", "30", "--", SLEEPS, "bad")
		assert.are.equal(0, code, err)
		-- EFAULT (14) for no timespec or an unmapped one, EINVAL (22)
		-- for a negative one, a nanosecond field past a second, a clock
		-- that is not one
		assert.are.equal("null -14\nunmapped -14\nnegative -22\nnsec -22\nclock_null -14\n"
			.. "clock_bad -22\nfar 0\n", out)
		-- the sleep of years counted as 31 years (10^9 s), not wrapped
		assert.is_truthy(err:find("sleeps skipped: 1000000000 s in 1 call\n", 1, true), err)
	end)

	it("a sleep up to the threshold runs, and is not counted", function()
		local out, err, code, res = json_run("--explore", "--wall", "30", "--", "/bin/sh", "-c",
			"sleep 0.2; sleep 5; timeout 0.2 sleep 3; echo done $?")
		assert.are.equal(0, code, err)
		-- the sleep a timer cuts short is cut as on a host
		assert.are.equal("done 124\n", out)
		assert.is_nil(sleeps_note(res), err)
		assert.is_nil(res.behaviour.sleeps_skipped)
	end)

	it("the jail does not skip: its wall clock ends a long sleep, with the watch profile too", function()
		for _, extra in ipairs { {}, { "--profile", "watch" } } do
			local args = { "--wall", "2" }
			for _, a in ipairs(extra) do args[#args + 1] = a end
			for _, a in ipairs { "--", SLEEPS, "all", "600" } do args[#args + 1] = a end
			local out, err, _, res = json_run(table.unpack(args))
			assert.are.equal("wall", res.outcome, err)
			assert.are.equal("", out)
			assert.is_nil(sleeps_note(res), err)
		end
	end)

	it("--sleep-skip sets the threshold; 0 skips none", function()
		local _, err, _, res = json_run("--explore", "--sleep-skip", "0", "--wall", "2", "--", SLEEPS, "all", "600")
		assert.are.equal("wall", res.outcome, err)
		assert.is_nil(sleeps_note(res), err)
		local out
		out, err = S.runlua("--explore", "--sleep-skip", "10", "--wall", "30", "--", "/bin/sh", "-c",
			"sleep 1.5; sleep 11; echo done")
		assert.are.equal("done\n", out)
		assert.is_truthy(err:find("sleeps skipped: 11 s in 1 call\n", 1, true), err)
		for _, bad in ipairs { "x", "-1", "3601", "nan" } do
			local _, e, c = S.runlua("--explore", "--sleep-skip", bad, "true")
			assert.are.equal(126, c, e)
			assert.are.equal("sbxlua: --sleep-skip " .. bad .. ": expected seconds from 0 to 3600\n", e)
		end
	end)

	it("sleep 600, then connect out: the sink records the connection well inside a 30 s wall clock", function()
		local out, err, code, res = json_run("--explore", "--wall", "30", "--", "/usr/bin/python3", "-c",
			"import time, socket\ntime.sleep(600)\n"
			.. "s = socket.create_connection(('198.51.100.7', 80), 5)\n"
			.. "s.sendall(b'GET / HTTP/1.0\\r\\n\\r\\n')\nprint('sent')")
		assert.are.equal(0, code, err)
		assert.are.equal("sent\n", out)
		local t = res.behaviour.ip_traffic
		assert.are.equal(1, #t, err)
		assert.are.equal("198.51.100.7", t[1].destination_ip)
		assert.are.equal(80, t[1].destination_port)
		-- python's sleep is absolute (TIMER_ABSTIME): what remained of it
		local n = tonumber(err:match("sandbox: note: sleeps skipped: (%d+) s in 1 call\n"))
		assert.is_true(n == 600 or n == 599, err)
		assert.are.same({ seconds = n, calls = 1 }, res.behaviour.sleeps_skipped)
	end)

	it("a skipped sleep past the wall clock makes the run a sleeper; a short one does not", function()
		local _, err = S.runlua("--explore", "--wall", "30", "--", "/bin/sh", "-c", "sleep 40")
		assert.is_truthy(err:find("finding: sleeper [T1497.003]: asked to sleep 40 s, past the wall clock (30 s)",
			1, true), err)
		_, err = S.runlua("--explore", "--wall", "30", "--", "/bin/sh", "-c", "sleep 8")
		assert.is_truthy(err:find("sleeps skipped: 8 s in 1 call", 1, true), err)
		assert.is_falsy(err:find("sleeper", 1, true), err)
	end)

	it("batch.lua skips them too (its default is the analysis box); --jail does not", function()
		local dir, rm = S.tmpdir()
		S.write(dir .. "/waits.sh", "#!/bin/sh\nsleep 600\necho done\n")
		os.execute("chmod 755 " .. S.q(dir .. "/waits.sh"))
		local out = S.sh(S.bin .. " batch.lua -q --wall 30 " .. S.q(dir) .. " 2>&1 </dev/null")
		local r = cjson.decode(out:match("^[^\n]*"))
		assert.are.equal("exit", r.outcome, out)
		assert.are.same({ seconds = 600, calls = 1 }, r.run.behaviour.sleeps_skipped)
		out = S.sh(S.bin .. " batch.lua -q --jail --wall 1 " .. S.q(dir) .. " 2>&1 </dev/null")
		assert.are.equal("wall", cjson.decode(out:match("^[^\n]*")).outcome, out)
		rm()
	end)

	it("the box's clocks do not move forward over a skipped sleep (a tell docs/standard-box.md names)", function()
		local out, err, code = S.runlua("--explore", "--wall", "30", "--", SLEEPS, "clocks", "600")
		assert.are.equal(0, code, err)
		local mono, boot, real = out:match("^monotonic (%d+)\nboottime (%d+)\nrealtime (%d+)\n$")
		assert.is_truthy(mono, out)
		for _, moved in ipairs { mono, boot, real } do assert.is_true(tonumber(moved) < 600, out) end
	end)
end)
