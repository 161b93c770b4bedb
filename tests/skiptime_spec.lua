-- SPDX-License-Identifier: MIT
-- Time that skips only when the whole box waits (core/super/sleep.c): a
-- held sleep is skipped when every task of the box waits and nothing in
-- it would wake sooner, and the box's time jumps to the earliest held
-- deadline, not past it.  Each case is a real box whose tasks say what
-- they saw, in the order they saw it (build/tests/skiptime): the order of
-- the lines and the supervisor's account of the jumps are the evidence,
-- not how long the run took.  Then CPython's own test modules with
-- skipping on.  scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"

local SKIPTIME = "build/tests/skiptime"

-- run.lua --explore --json with a wall clock of 60 s; returns stdout,
-- the report, the exit status and the JSON
local function explore(...)
	local out, err, code, res = S.json_run("--explore", "--wall", "60", "--", ...)
	assert.is_table(res, err)
	return out, err, code, res
end

local function sleeps_note(res) return S.note(res, "sleeps") end

describe("time skips only when the whole box waits [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	it("sleep 600, then an act: the sleep is skipped (the box ends by itself inside its wall clock)", function()
		local out, err, code, res = explore("/bin/sh", "-c", "sleep 600; echo done")
		assert.are.equal(0, code, err)
		assert.are.equal("exit", res.outcome)
		assert.are.equal("done\n", out)
		local note = assert(sleeps_note(res), err)
		assert.are.equal(1, note.calls)
		-- the jump is what remained of the sleep when the box was seen
		-- waiting: a few ms short of 600 (more on a loaded host)
		assert.is_true(note.seconds > 595 and note.seconds <= 600, err)
	end)

	it("a parent's 3 s timeout on a child that sleeps 3600 s fires as on a host; the child's sleep is not answered", function()
		local out, err, code, res = explore(SKIPTIME, "pair", "3", "3600")
		assert.are.equal(0, code, err)
		-- the parent's own view: its poll ran out (0), after 3 s of its
		-- own clock; the child never said it woke: it was killed in its
		-- sleep
		local waited = out:match("^parent timeout\nwaited (%d+) s\nchild killed 9\n$")
		assert.is_truthy(waited, out)
		assert.is_true(tonumber(waited) >= 3, out)
		assert.is_nil(sleeps_note(res), err)
	end)

	it("once that parent waits with no timeout, the child's sleep is skipped", function()
		local out, err, code, res = explore(SKIPTIME, "pair", "3", "3600", "wait")
		assert.are.equal(0, code, err)
		assert.matches("^parent timeout\nwaited %d+ s\nchild woke\nchild exited 0\n$", out)
		local note = assert(sleeps_note(res), err)
		assert.are.equal(1, note.calls)
		-- 3600 s less the 3 s the box did not wait
		assert.is_true(note.seconds > 3590 and note.seconds < 3598, err)
	end)

	it("a busy loop beside a sleeper holds the skip back until it ends", function()
		local out, err, code, res = explore(SKIPTIME, "busy", "2")
		assert.are.equal(0, code, err)
		-- the sleeper wakes after the busy child is done, never before
		assert.are.equal("busy done\nsleeper woke\nchild exited 0\nchild exited 0\n", out)
		assert.are.equal(1, assert(sleeps_note(res), err).calls)
	end)

	it("two sleepers of 100 s and 500 s: the first wakes first, the time jumps 100 s, then 400 s", function()
		local out, err, code, res = explore(SKIPTIME, "two", "100", "500")
		assert.are.equal(0, code, err)
		assert.are.equal("woke 100\nchild exited 0\nwoke 500\nchild exited 0\n", out)
		-- two jumps: to the first deadline (100 s), then to the second
		-- (400 s more): 500 s in all, the longest 400 s; one jump to the
		-- last deadline would have been 500 s at once
		local note = assert(sleeps_note(res), err)
		-- (less the real time the box took between them)
		assert.are.equal(2, note.calls)
		assert.is_true(note.seconds > 495 and note.seconds <= 500, err)
		local got = ("longest %s, seconds %s"):format(tostring(note.longest), tostring(note.seconds))
		assert.is_true(note.longest > 395 and note.longest <= 400, got)
	end)

	it("an alarm armed before a long sleep cuts it short as on a host (EINTR, the time that remains)", function()
		local out, err, code, res = explore(SKIPTIME, "alarm", "600")
		assert.are.equal(0, code, err)
		-- alarm(2), nanosleep(600): EINTR at 2 s, about 598 s left (597
		-- or 598 on a host; a loaded one answers later)
		local left = out:match("^nanosleep %-4 rem (%d+)\nalarms 1\n$")
		assert.is_truthy(left, out)
		assert.is_true(tonumber(left) > 590 and tonumber(left) <= 598, out)
		assert.is_nil(sleeps_note(res), err)
	end)

	it("an armed timerfd holds the skip back until it fires", function()
		local out, err, code, res = explore(SKIPTIME, "timerfd", "600")
		assert.are.equal(0, code, err)
		assert.are.equal("timer fired\nchild woke\nchild exited 0\n", out)
		assert.are.equal(1, assert(sleeps_note(res), err).calls)
	end)

	it("a signal another process sends cuts a held sleep short: EINTR, its handler, the time that remains", function()
		-- the parent signals once the child's /proc says it waits in
		-- nanosleep (held by the supervisor): on a host, "nanosleep -4
		-- rem 599 handled 1"
		local out, err, code, res = explore(SKIPTIME, "signal", "600")
		assert.are.equal(0, code, err)
		local left = out:match("^nanosleep %-4 rem (%d+) handled 1\nchild exited 0\n$")
		assert.is_truthy(left, out)
		-- the time that remains, as on a host; or, when the signal came
		-- before the supervisor had read the notification (a loaded host
		-- widens that window), none written: the kernel ended the call
		-- before it ran (docs/seccomp.md, the known race of a notified call)
		assert.is_true(tonumber(left) == 0 or (tonumber(left) > 590 and tonumber(left) <= 599), out)
		assert.is_nil(sleeps_note(res), err)
	end)

	it("pselect6 and ppoll wait under their own signal mask: a pending signal it lets through ends them, handled", function()
		-- SIGUSR1 blocked and pending; the call's mask lets it through:
		-- EINTR at once and the handler runs, as on a host
		local out, err, code, res = explore(SKIPTIME, "sigmask", "600")
		assert.are.equal(0, code, err)
		assert.are.equal("pselect6 -4 handled 1\nppoll -4 handled 2\n", out)
		assert.is_nil(sleeps_note(res), err)
	end)

	it("more sleepers than the supervisor holds: the rest sleep in the kernel, none skipped, the wall clock ends it", function()
		-- 300 threads of 600 s: 256 held, the others run with their
		-- timeout (a deadline the supervisor cannot move), so the box
		-- never waits as a whole
		local out, err, _, res = S.json_run("--explore", "--pids", "400", "--wall", "4", "--", "/usr/bin/python3", "-c", [[
import threading, time
threading.stack_size(65536)
ts = [threading.Thread(target=time.sleep, args=(600,)) for _ in range(300)]
for t in ts: t.start()
print("started", flush=True)
for t in ts: t.join()
print("joined")
]])
		assert.is_table(res, err)
		assert.are.equal("wall", res.outcome, err)
		assert.are.equal("started\n", out)
		assert.is_nil(sleeps_note(res), err)
	end)
end)

describe("CPython's own tests in the analysis box, sleeps skipped [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	-- libpython3.11-testsuite (scripts/deps.sh); each module on its own, in
	-- the analysis box with its default threshold, must end with the test
	-- runner's SUCCESS, as in the jail
	for _, m in ipairs { "test_os", "test_subprocess", "test_pty", "test_signal", "test_threading" } do
		it(m .. " passes", function()
			if not S.read("/usr/lib/python3.11/test/" .. m .. ".py") then
				return pending("libpython3.11-testsuite is not installed (scripts/deps.sh installs it)")
			end
			local out, err, code = S.runlua("--explore", "--wall", "900", "--cpu", "900",
				"/usr/bin/python3", "-m", "test", m)
			assert.are.equal(0, code, out .. err)
			assert.matches("Tests result: SUCCESS", out, nil, true)
		end)
	end
end)
