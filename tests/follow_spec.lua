-- SPDX-License-Identifier: MIT
-- The analysis box follows the sample to its last process, not its first
-- (the spec's `follow`, stdbox ANALYSIS; core/child/reap.c): a payload
-- that goes to the background after the command exits is seen and judged;
-- what ran on is named in the report, the result's `outlived` and the
-- process tree; the wall clock bounds it; the jail still ends with the
-- command.  Every sample here waits on pipes and process ends, never on
-- time (build/tests/daemonize).  scripts/test.sh runs this file as root
-- and as uid 65534.
local S = require "support"
local sbx = require "sbx"
local cjson = require "cjson"

local DAEMONIZE = "build/tests/daemonize"
-- the sample of the issue: the parent exits at once, the payload runs in
-- a session of its own a second later (a sleep of 1 s: under the analysis
-- box's sleep-skip threshold, so it is really slept)
local BACKGROUND = "setsid sh -c 'sleep 1; cat /etc/shadow; getent hosts evil.example.org' & exit 0"

-- Debian's python3 by its path, for the schema (tests/json_spec.lua)
local PY = "/usr/bin/python3"
local _, no_schema = S.sh(PY .. " -c 'import jsonschema' 2>/dev/null")

-- The checker's complaints about text (JSON lines) against docs/schema/NAME
-- ("" when valid; nil when python3-jsonschema is missing: a test says
-- so, pending).
local function invalid(text, name)
	if no_schema ~= 0 then return nil end
	local f = os.tmpname()
	S.write(f, text)
	local out = S.sh(PY .. " tests/schema_check.py docs/schema " .. name .. " <" .. f .. " 2>&1")
	os.remove(f)
	return out
end

-- `sbxlua run.lua --json FILE args...`: stdout, the report, the status,
-- the decoded result and its text
local function json_run(...)
	local j = os.tmpname()
	local out, err, code = S.runlua("--json", j, ...)
	local text = S.read(j) or "null"
	os.remove(j)
	return out, err, code, cjson.decode(text), text
end

-- a marker no other test process holds, carried in a sample's command line
local function marker()
	return "follow" .. S.unique()
end

-- the events of kind k, and their paths or addresses
local function events_of(res, kind)
	local list = {}
	for _, e in ipairs(res.events or {}) do
		if e.kind == kind then list[#list + 1] = e end
	end
	return list
end

local function has_open(res, path)
	for _, e in ipairs(events_of(res, "open")) do
		if e.path == path then return e end
	end
	return nil
end

local function dns_names(res)
	local set = {}
	for _, d in ipairs((res.sink or {}).dns or {}) do set[d.hostname] = true end
	return set
end

-- the tree's nodes as a flat list, each with its depth
local function nodes(tree)
	local out = {}
	local function walk(list, depth)
		for _, n in ipairs(list or {}) do
			out[#out + 1] = { node = n, depth = depth }
			walk(n.children, depth + 1)
		end
	end
	walk(tree, 0)
	return out
end

describe("the analysis box follows the sample [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	if no_schema ~= 0 then
		pending("the results' shapes against docs/schema (needs python3-jsonschema)")
	end

	it("a payload sent to the background after the command exits is seen and judged", function()
		local _, err, code, res = S.json_run("--explore", "sh", "-c", BACKGROUND)
		assert.are.equal(0, code, err) -- the command's own status
		assert.are.equal("exit", res.outcome)
		assert.is_table(has_open(res, "/etc/shadow"), err)
		assert.is_true(dns_names(res)["evil.example.org"], err)
		assert.are_not.equal("clean", res.verdict.verdict, err)
		-- the report says what ran on, and for how long
		assert.matches("sandbox: note: %d+ process[es]* ran on after the command exited %(%d+%.%d s%)\n", err)
		assert.is_table(res.outlived)
		assert.is_true(res.outlived.count >= 1)
		assert.is_true(res.outlived.seconds >= 0)
		local note
		for _, e in ipairs(res.events) do
			if e.kind == "note" and e.cause == "outlived" then note = e end
		end
		assert.is_table(note)
		assert.is_number(note.time_ms)
	end)

	it("a double fork (fork, setsid, fork, parents exit) is followed, its fork marked in the tree", function()
		local m = marker()
		local _, err, code, res, text = json_run("--explore", DAEMONIZE, "act", m)
		assert.are.equal(0, code, err)
		assert.are.equal("", invalid(text, "run.schema.json") or "")
		local shadow = has_open(res, "/etc/shadow")
		assert.is_table(shadow, err)
		-- read by the daemon, not by the command (pid 2, the first exec)
		assert.are_not.equal(events_of(res, "exec")[1].pid, shadow.pid)
		assert.is_true(dns_names(res)["evil.example.org"], err)
		assert.matches("finding: shadow", err)
		assert.are.equal("malicious", res.verdict.verdict, err)
		-- the worker that never executed: its connect is in the traffic,
		-- and it is in the tree, named by its parent's image, a fork
		local traffic = {}
		for _, t in ipairs(res.behaviour.ip_traffic) do
			traffic[t.destination_ip .. ":" .. tostring(math.tointeger(t.destination_port))] = true
		end
		assert.is_true(traffic["10.0.0.7:4444"], err)
		local forks, pids = 0, {}
		for _, n in ipairs(nodes(res.behaviour.processes_tree)) do
			pids[tonumber(n.node.process_id)] = n.node
			if n.node.fork then
				forks = forks + 1
				assert.are.equal("/work/daemonize", n.node.name)
			end
		end
		assert.is_true(forks >= 2, err) -- the daemon and its worker
		local connect
		for _, e in ipairs(events_of(res, "connect")) do
			if e.addr == "10.0.0.7:4444" then connect = e end
		end
		assert.is_table(connect)
		assert.is_table(pids[connect.pid], "the worker's node")
		assert.is_true(pids[connect.pid].fork)
		assert.matches("%(fork%)", err)
		-- nothing of it is left on the host
		assert.are.same({}, S.holding(m))
	end)

	it("a daemon that never ends is ended at the wall clock, with the note", function()
		local m = marker()
		local _, err, code, res, text = json_run("--explore", "--wall", "2", DAEMONIZE, "forever", m)
		assert.are.equal(0, code, err) -- the command's own status
		assert.are.equal("", invalid(text, "run.schema.json") or "")
		assert.are.equal("exit", res.outcome)
		assert.are.equal("wall", res.outlived.killed)
		assert.matches("sandbox: note: %d+ process[es]* ran on after the command exited "
			.. "%(%d+%.%d s%), until the wall clock %(2 s%) ended them\n", err)
		assert.are.same({}, S.holding(m))
	end)

	it("a stop while a daemon runs on is an interrupted run, not the command's exit", function()
		local m = marker()
		local dir, remove = S.tmpdir()
		os.execute("chmod 0777 " .. S.q(dir)) -- a root caller's box writes as its host id
		-- the daemon creates ready once the command has exited; then
		-- sbxlua gets SIGTERM (a background job of sh ignores SIGINT)
		local out = S.sh(([[
d=%s
%s run.lua --explore --rw "$d:/mnt/out" --json "$d/r.json" %s forever %s /mnt/out/ready 2>"$d/err" </dev/null &
p=$!
i=0
while [ ! -e "$d/ready" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done
kill -TERM $p
wait $p
echo $?]]):format(S.q(dir), S.bin, S.q(DAEMONIZE), m))
		local err, text = S.read(dir .. "/err"), S.read(dir .. "/r.json")
		local ready = S.read(dir .. "/ready")
		remove()
		assert.is_string(ready, err) -- the daemon ran on
		assert.are.equal("143", out:match("%d+"), err)
		local res = cjson.decode(text)
		assert.are.equal("interrupted", res.outcome)
		assert.are.equal("interrupted", res.outlived.killed)
		assert.matches("sandbox: interrupted %(SIGTERM%)\n", err)
		assert.are.same({}, S.holding(m))
	end)

	it("the jail still ends with the command: nothing it left survives", function()
		local m = marker()
		local _, err, code, res = S.json_run("--wall", "30", DAEMONIZE, "forever", m)
		assert.are.equal(0, code, err)
		assert.are.equal("exit", res.outcome)
		assert.is_nil(res.outlived)
		assert.does_not.match("ran on", err)
		-- the daemon existed before the command exited (it said so on a
		-- pipe): the box killed it, none is left on the host
		assert.are.same({}, S.holding(m))
	end)

	-- `batch.lua options` over the sample (a batch runs a program
	-- without arguments: a copy of it whose name holds a marker, its
	-- forever mode): its output, first record, stderr and the marker
	local function batch_daemon(options)
		local m = marker()
		local dir, remove = S.tmpdir()
		local prog = dir .. "/daemonize-" .. m
		os.execute(("cp %s %s && chmod 0755 %s"):format(S.q(DAEMONIZE), S.q(prog), S.q(dir)))
		local out, e = S.sh_err(("%s batch.lua %s --progress never %s"):format(S.bin, options, S.q(prog)))
		remove()
		return out, cjson.decode((out:match("[^\n]+"))), e, m
	end

	it("a batch's wall clock ends a sample's daemon and records it", function()
		local out, rec, e, m = batch_daemon("--wall 2")
		assert.are.equal("", invalid(out, "batch-line.schema.json") or "")
		assert.are.equal("exit", rec.outcome, e)
		assert.are.equal(0, rec.exit_code)
		assert.are.equal("wall", rec.run.outlived.killed, e)
		assert.are.same({}, S.holding(m))
	end)

	it("batch.lua --jail ends each box with its program", function()
		local _, rec, e, m = batch_daemon("--jail --wall 30")
		assert.are.equal("exit", rec.outcome, e)
		assert.is_nil(rec.run.outlived)
		assert.are.same({}, S.holding(m))
	end)

	describe("the tree of a result (sbx.behaviour, no box)", function()
		local behaviour = require "sbx.behaviour"
		local function res(outlived)
			return { outlived = outlived, events = {
				{ kind = "exec", pid = 2, ppid = 1, path = "/usr/bin/bot", argv = { "bot" } },
				-- the daemon, first seen once its parent was gone
				{ kind = "open", pid = 4, ppid = 1, path = "/etc/shadow", flags = 0 },
				-- its worker, never executed
				{ kind = "connect", pid = 5, ppid = 4, addr = "10.0.0.7:4444", family = "inet" },
			} }
		end

		it("a fork is named by its parent's image, a reparented daemon by its kernel name", function()
			local s = behaviour.summary(res { count = 2, seconds = 1, after_ms = 3,
				processes = { { pid = 4, name = "bot" }, { pid = 6, name = "idle" } } })
			local by = {}
			for _, n in ipairs(nodes(s.processes_tree)) do by[n.node.process_id] = n end
			assert.are.equal("/usr/bin/bot", by["2"].node.name)
			assert.is_nil(by["2"].node.fork)
			assert.are.equal("/usr/bin/bot", by["4"].node.name)
			assert.is_true(by["4"].node.fork and by["4"].node.outlived)
			assert.are.equal("/usr/bin/bot", by["5"].node.name)
			assert.is_true(by["5"].node.fork)
			assert.are.equal(1, by["5"].depth) -- under the daemon
			-- alive at the command's end and named by no event: its name
			assert.are.equal("idle", by["6"].node.name)
			assert.matches("\n +/usr/bin/bot %(fork%) %(ran on%)\n", behaviour.text(s))
			-- the box's own command by its placeholder (sbx.behaviour.canonical)
			assert.matches("processes_tree=<command> %(fork%)>/usr/bin/bot %(fork%)\n", behaviour.canonical(s))
		end)

		it("what ran on is not in the behash: a matter of timing", function()
			local s = behaviour.summary(res { count = 1, seconds = 1, after_ms = 3,
				processes = { { pid = 4, name = "bot" } } })
			assert.does_not.match("ran on", behaviour.canonical(s))
			assert.does_not.match("outlived", behaviour.canonical(s))
		end)

		it("a daemon that had ended when init looked is named by its kernel name, and did not run on", function()
			-- it acted and ended between the command's end and init's look
			local s = behaviour.summary(res { count = 0, seconds = 0, after_ms = 3, processes = {},
				ended = { { pid = 4, name = "bot" } } })
			local by = {}
			for _, n in ipairs(nodes(s.processes_tree)) do by[n.node.process_id] = n end
			assert.are.equal("/usr/bin/bot", by["4"].node.name)
			assert.is_true(by["4"].node.fork)
			assert.is_nil(by["4"].node.outlived)
			assert.are.equal("/usr/bin/bot", by["5"].node.name)
			assert.does_not.match("ran on", behaviour.text(s))
			-- without the name, the daemon's image is not known
			s = behaviour.summary(res { count = 0, seconds = 0, after_ms = 3, processes = {}, ended = {} })
			for _, n in ipairs(nodes(s.processes_tree)) do by[n.node.process_id] = n end
			assert.are.equal("?", by["4"].node.name)
		end)

		it("none ran on (count 0): no note", function()
			local events = require "sbx.events"
			local r = { outcome = "exit", code = 0, events = {},
				outlived = { count = 0, seconds = 0, after_ms = 3, processes = {}, ended = { { pid = 4, name = "bot" } } } }
			for _, e in ipairs(events.events(r, {})) do assert.are_not.equal("outlived", e.cause) end
			r.outlived.count = 1
			r.outlived.processes = { { pid = 5, name = "bot" } }
			local found
			for _, e in ipairs(events.events(r, {})) do found = found or e.cause == "outlived" end
			assert.is_true(found)
		end)

		it("an outlived that is not a list of processes is left out", function()
			for _, o in ipairs { "x", 1, { processes = "x" }, { processes = { { pid = "4", name = 1 } } } } do
				local s = behaviour.summary(res(o))
				assert.are.equal(3, #nodes(s.processes_tree))
			end
		end)
	end)

	describe("the core's follow", function()
		it("follow = true keeps the box until its last process has ended", function()
			local r = S.run("(read x </dev/null; echo late) & echo early",
				{ follow = true, namespaces = { "user", "mount", "pid", "ipc", "uts", "net" } })
			assert.are.equal("exit", r.outcome)
			assert.matches("early\n", r.stdout)
			assert.matches("late\n", r.stdout)
		end)

		it("a field follow that is not a boolean is refused", function()
			local ok, msg = pcall(sbx.run, S.spec("true", { follow = "yes" }))
			assert.is_false(ok)
			assert.matches("field 'follow' must be a boolean", msg)
		end)
	end)
end)

-- From a terminal, as an analyst runs it: the box's pty is init's and the
-- command leads its foreground process group, as a shell's job does, so
-- the command's exit hangs nothing up (as its session leader, it sent
-- SIGHUP to the group, and the background child died before its setsid);
-- once the command has ended the caller's terminal is its own again, so
-- that ^C stops the box (tests/on_pty.py: a real pseudo-terminal).
describe("the analysis box follows the sample on a terminal [" .. S.priv .. "]", function()
	local function on_tty(script, steps)
		local q = {}
		for i, a in ipairs(steps) do q[i] = S.q(a) end
		return (S.sh("/usr/bin/python3 tests/on_pty.py " .. S.q(S.bin .. " run.lua --explore /bin/sh -c "
			.. S.q(script) .. "; echo rc=$?") .. " " .. table.concat(q, " ")))
	end

	it("a background payload runs on after the command exits, its acts seen", function()
		local out = on_tty(BACKGROUND, { "NEVER SHOWN", "" })
		assert.truthy(out:find("sandbox: note: 1 process ran on after the command exited", 1, true), out)
		assert.truthy(out:find("finding: shadow [T1003.008]", 1, true), out)
		assert.truthy(out:find("evil.example.org", 1, true), out)
		assert.truthy(out:find("rc=0", 1, true), out)
	end)

	it("^C after the command exited stops the box (the terminal is the caller's again)", function()
		-- the daemon says so once the command is gone; ^C typed again
		-- until the box is stopped: the terminal is given back when the
		-- supervisor hears of the command's end, an instant later (a ^C
		-- before it is the box's, whose foreground group is empty then)
		local m = marker()
		local out = on_tty("p=$$; setsid sh -c 'while [ -e /proc/'$p' ]; do sleep 0.1; done; echo " .. m
			.. "-alone; while :; do sleep 1; done' & exit 0", { m .. "-alone", "@until=sandbox: :\x03" })
		assert.truthy(out:find("sandbox: interrupted (SIGINT)", 1, true), out)
		assert.truthy(out:find("until the box was stopped (interrupted)", 1, true), out)
		-- (the ^C reached the shell that ran sbxlua too: no rc= line)
	end)

	it("^C after the command exited stops the box while a process of it writes on", function()
		-- the terminal is given back once what there was to show at the
		-- command's end is shown, not once the box stops writing: a
		-- process left writing must not keep ^C from sbxlua (it would
		-- be a byte for the box's terminal, whose foreground group's
		-- background loop ignores SIGINT, until the wall clock)
		local m = marker()
		local out = on_tty("(while :; do echo " .. m .. "; done) & sleep 1; echo " .. m .. "-flood; exit 0",
			{ m .. "-flood", "@until=sandbox: :\x03" })
		assert.truthy(out:find("sandbox: interrupted (SIGINT)", 1, true), out:sub(-3000))
		assert.falsy(out:find("wall clock", 1, true), out:sub(-3000))
		-- ^C typed again while the box was stopped is that stop, not
		-- another for the interpreter after it (which lost the report)
		assert.falsy(out:find("interrupted!", 1, true), out:sub(-3000))
	end)
end)
