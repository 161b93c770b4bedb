-- SPDX-License-Identifier: MIT
-- The events' time and parentage (time_ms, ppid: notify.c, event.c) and
-- the process tree built from them (sbx.behaviour), checked against what
-- the processes themselves saw: build/tests/forktree forks many children
-- at once, each writing its pid and its parent's from inside the box.
-- scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"

local FORKTREE = "build/tests/forktree"
local N, M = 20, 3 -- children, each with M children of its own

-- { [pid] = { ppid =, name = } } from forktree's lines "pid ppid name"
local function seen(out)
	local procs, n = {}, 0
	for pid, ppid, name in out:gmatch("(%d+) (%d+) (%a+)\n") do
		procs[tonumber(pid)] = { ppid = tonumber(ppid), name = name }
		n = n + 1
	end
	return procs, n
end

-- the notified events of a result (those the explain channel made: they
-- name their call)
local function notified(res)
	local list = {}
	for _, e in ipairs(res.events or {}) do
		assert.are_not.equal("dropped", e.kind, "events were dropped: the comparison would be partial")
		if e.nr then list[#list + 1] = e end
	end
	return list
end

-- every notified event has an integer time_ms and ppid, its ppid is its
-- process's real parent, and time_ms does not go back within a process
local function check_events(events, procs)
	local last, named = {}, {}
	for _, e in ipairs(events) do
		-- integers (the JSON's numbers come back as floats)
		local t, ppid, pid = math.tointeger(e.time_ms), math.tointeger(e.ppid), math.tointeger(e.pid)
		assert.truthy(t and t >= 0, "time_ms of " .. e.kind)
		assert.truthy(ppid and ppid >= 0, "ppid of " .. e.kind)
		local p = procs[pid]
		if p then
			assert.are.equal(p.ppid, ppid, ("ppid of pid %d's %s"):format(pid, e.kind))
			named[pid] = true
		end
		assert.truthy(t >= (last[pid] or 0),
			("time_ms of pid %s went back: %d after %d"):format(pid, t, last[pid] or 0))
		last[pid] = t
	end
	return named
end

-- the tree as { [pid] = parent pid or 0 }, and its node count
local function edges(tree)
	local out, n = {}, 0
	local function walk(list, parent)
		for _, node in ipairs(list) do
			local pid = assert(math.tointeger(tonumber(node.process_id)))
			assert.is_nil(out[pid], "pid " .. pid .. " twice in the tree")
			out[pid], n = parent, n + 1
			walk(node.children, pid)
		end
	end
	walk(tree, 0)
	return out, n
end

describe("time and parentage of events [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	it("the analysis box's tree is the real parentage under concurrent forks", function()
		local out, err, code, res = S.json_run("--explore", FORKTREE, tostring(N), tostring(M))
		assert.are.equal(0, code, err)
		local procs, count = seen(out)
		assert.are.equal(1 + N + N * M, count, out)
		check_events(notified(res), procs)
		local tree, nodes = edges(res.behaviour.processes_tree)
		assert.are.equal(count, nodes, "nodes of the tree")
		for pid, p in pairs(procs) do
			-- the root's parent is the box's init, which has no node
			local want = procs[p.ppid] and p.ppid or 0
			assert.are.equal(want, tree[pid], ("parent of %d (%s)"):format(pid, p.name))
		end
	end)

	it("the jail names each process's refusal with its real parent", function()
		local out, err, code, res = S.json_run(FORKTREE, tostring(N), tostring(M))
		assert.are.equal(0, code, err)
		local procs, count = seen(out)
		assert.are.equal(1 + N + N * M, count, out)
		local named = check_events(notified(res), procs)
		for pid in pairs(procs) do assert.truthy(named[pid], "no event of pid " .. pid) end
	end)

	it("names the kernel's parent of an orphan, and guesses no other", function()
		-- its parent exits before its first watched call: the box's init
		-- is its parent by then, as it sees itself
		local out, err, code, res = S.json_run("--explore", FORKTREE, "orphan")
		assert.are.equal(0, code, err)
		local procs, count = seen(out)
		assert.are.equal(2, count, out)
		local named = check_events(notified(res), procs)
		local orphan
		for pid, p in pairs(procs) do
			assert.truthy(named[pid], "no event of pid " .. pid)
			if p.name == "orphan" then orphan = pid end
		end
		assert.are.equal(1, procs[orphan].ppid)
		local tree = edges(res.behaviour.processes_tree)
		assert.are.equal(0, tree[orphan], "the orphan is a root")
	end)

	it("keeps times out of the text: the same run reads the same", function()
		local args = { "--explore", "--behaviour", "/bin/sh", "-c", "/bin/true x; /bin/true y" }
		local _, e1, c1 = S.runlua(table.unpack(args))
		local _, e2, c2 = S.runlua(table.unpack(args))
		assert.are.equal(c1, c2)
		assert.are.equal(e1, e2)
		assert.is_nil(e1:find("time_ms", 1, true))
	end)
end)

describe("the process tree from the events' ppid", function()
	local behaviour = require "sbx.behaviour"
	local function exec(pid, ppid, path)
		return { kind = "exec", pid = pid, ppid = ppid, path = path, argv = { path }, answer = "allow",
			time_ms = 0, nr = 59 }
	end

	it("places a child whose exec came before its parent's under that parent", function()
		-- 3 forked 4, then executed itself: 4's exec is seen first
		local s = behaviour.summary { events = { exec(2, 1, "/bin/sh"), exec(4, 3, "/bin/b"),
			{ kind = "clone", pid = 3, ppid = 2, answer = "allow", time_ms = 0, nr = 56 },
			exec(3, 2, "/bin/a") } }
		assert.are.equal(1, #s.processes_tree)
		local a = s.processes_tree[1].children[1]
		assert.are.equal("/bin/a", a.name)
		assert.are.equal("/bin/b", a.children[1].name)
	end)

	it("makes roots of processes whose parents loop (reused pids), losing none", function()
		local s = behaviour.summary { events = { exec(5, 6, "/bin/x"), exec(6, 5, "/bin/y") } }
		assert.are.equal(2, #s.processes_tree)
	end)

	it("guesses no parent for an event without a ppid", function()
		local s = behaviour.summary { events = { exec(2, 1, "/bin/sh"),
			{ kind = "clone", pid = 2, answer = "allow" }, { kind = "exec", pid = 7, path = "/bin/z" } } }
		assert.are.equal(2, #s.processes_tree)
	end)
end)
