-- SPDX-License-Identifier: MIT
-- sbx.pool: boxes started one at a time under one supervisor, each given
-- back as it ends (what batch.lua runs on).  The host's view is checked
-- after a close: nothing of a pool's boxes stays running.
-- scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"
local sbx = require "sbx"
local core = require "sbx.core"

local MINI = sbx.minimal_mounts()

local function sh(cmd, extra)
	local spec = { argv = { "/bin/sh", "-c", cmd }, mounts = MINI, stdout = "capture" }
	for k, v in pairs(extra or {}) do spec[k] = v end
	return spec
end

local holding = S.holding
local function marked_sleep() return S.marked_sleep(MINI) end

describe("sbx.pool [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	it("gives back each box as it ends, by its token; nil once none runs", function()
		local p <close> = sbx.pool()
		assert.is_nil(p:wait())
		local t1 = assert(p:start(sh("echo a")))
		local t2 = assert(p:start(sh("echo b")))
		assert.are.same({ 1, 2 }, { t1, t2 })
		assert.are.equal(2, p:running())
		assert.matches("^sbx.pool %(2 running%)$", tostring(p))
		local seen = {}
		for _ = 1, 2 do
			local t, r = p:wait()
			assert.are.equal("exit", r.outcome)
			seen[t] = r.stdout
		end
		assert.are.same({ "a\n", "b\n" }, seen)
		assert.is_nil(p:wait())
		assert.are.equal(0, p:running())
		-- and it goes on: a later start gets the next token
		assert.are.equal(3, p:start(sh("exit 3")))
		local t, r = p:wait()
		assert.are.same({ 3, "exit", 3 }, { t, r.outcome, r.code })
	end)

	it("each box's init maps its own plan alone, its program none", function()
		-- the plans' mappings are shared with this process (plancopy.c):
		-- each must reach the one init that reads it, no other box
		local p <close> = sbx.pool()
		local marks = {}
		for i = 1, 3 do
			local spec, marker = marked_sleep()
			assert(p:start(spec))
			marks[i] = marker
		end
		-- the shared anonymous mappings of a process, by inode; nil when
		-- its maps cannot be read (a non-dumpable init, to a caller
		-- without CAP_SYS_PTRACE over this process's namespace)
		local function shared(pid)
			local maps = S.read(("/proc/%s/maps"):format(pid))
			if not maps or maps == "" then return nil end
			local t = {}
			for ino in maps:gmatch("%x+%-%x+ rw%-s %x+ %S+ (%d+)%s+/dev/zero %(deleted%)") do t[#t + 1] = ino end
			return t
		end
		local seen, checked = {}, 0
		for _, marker in ipairs(marks) do
			local pid
			repeat
				pid = holding(marker)[1]
				if not pid then S.sh("sleep 0.02") end
			until pid
			-- the program (after its execve): no mapping of sbxlua's
			assert.are.same({}, shared(pid))
			local init = (S.read(("/proc/%s/status"):format(pid)) or ""):match("PPid:%s*(%d+)")
			local own = shared(init)
			if own then
				assert.are.equal(1, #own, "init " .. init .. " maps " .. #own .. " plans")
				assert.is_nil(seen[own[1]], "two inits share a plan")
				seen[own[1]] = true
				checked = checked + 1
			end
		end
		-- as root the inits' maps are read (not as the unprivileged
		-- caller: init is not dumpable, and this process holds no
		-- CAP_SYS_PTRACE); the programs' are, either way
		if S.euid() == 0 then assert.are.equal(3, checked) end
		p:close()
		for _, marker in ipairs(marks) do assert.are.same({}, holding(marker)) end
	end)

	it("starts the next box while another still runs", function()
		local p <close> = sbx.pool()
		local slow, marker = marked_sleep()
		local ts = assert(p:start(slow))
		-- the sleeper runs (the event: its process on the host)
		while #holding(marker) == 0 do S.sh("sleep 0.02") end
		local tq = assert(p:start(sh("echo quick")))
		local t, r = p:wait()
		assert.are.equal(tq, t)
		assert.are.equal("quick\n", r.stdout)
		assert.are.equal(1, p:running())
		p:close()
		assert.are.equal(0, p:running())
		assert.are.same({}, holding(marker))
		assert.is_nil(p:wait())
		assert.is_number(ts)
	end)

	it("closing kills and reaps every box still running; 64 at once at most", function()
		local markers = {}
		do
			local p <close> = sbx.pool()
			for i = 1, 64 do
				local spec, marker = marked_sleep()
				markers[i] = marker
				assert.are.equal(i, p:start(spec))
			end
			assert.has_error(function() p:start(sh("true")) end, "a pool runs at most 64 boxes at once")
			assert.are.equal(64, p:running())
		end
		for _, m in ipairs(markers) do assert.are.same({}, holding(m), m) end
	end)

	it("a spec that cannot run is refused at start; the pool goes on", function()
		local p <close> = sbx.pool()
		local token, msg = p:start({ argv = { "/bin/true" }, mounts = { { type = "bind", src = "/nonexistent-sbx", dst = "/x" } } })
		assert.is_nil(token)
		assert.matches("nonexistent%-sbx", msg)
		assert.are.equal(0, p:running())
		assert.are.equal(1, p:start(sh("true")))
		assert.are.equal("exit", select(2, p:wait()).outcome)
	end)

	it("bad arguments raise", function()
		local p <close> = sbx.pool()
		assert.has_error(function() p:start(1) end, "bad argument #1 to 'start' (table expected, got number)")
		assert.has_error(function() sbx.pool().start({}, {}) end,
			"bad argument #1 to 'start' (sbx.pool expected, got table)")
		assert.has_error(function() p:start(sh("true", { pty = true })) end,
			"bad argument #1 to 'start' (a box with a terminal runs alone)")
		local cp <close> = core.pool()
		local b = assert(sbx.box(sh("true"))).core
		b:close()
		assert.has_error(function() cp:start(b) end, "attempt to use a closed box")
		assert.has_error(function() cp:start("box") end)
	end)

	it("a SIGINT while it waits stops every box, each result says so", function()
		local dir, cleanup = S.tmpdir()
		local script = dir .. "/pool.lua"
		local f = assert(io.open(script, "w"))
		f:write(([[
			local sbx = require "sbx"
			local p <close> = sbx.pool()
			for _ = 1, 2 do
				assert(p:start { argv = { "/bin/sleep", "%s" }, mounts = sbx.minimal_mounts() })
			end
			io.stdout:write("started\n"); io.stdout:flush()
			local out = {}
			for _ = 1, 2 do
				local t, r = p:wait()
				out[t] = r.outcome .. " " .. tostring(r.signal or "")
			end
			print(out[1], out[2])
		]]):format(select(2, marked_sleep())))
		f:close()
		local p = assert(io.popen(("env --default-signal=INT LUA_PATH=%s LUA_CPATH=%s %s %s & echo $!; wait $!; echo $?")
			:format(S.q(package.path), S.q(package.cpath), S.bin, S.q(script))))
		local pid = p:read("l")
		assert.are.equal("started", p:read("l"))
		-- the event: the supervisor owns SIGINT (blocked, read from its
		-- signalfd) once it waits
		while true do
			local st = S.read("/proc/" .. pid .. "/status") or ""
			local blk = st:match("SigBlk:%s*(%x+)")
			if blk and tonumber(blk:sub(-1), 16) & 2 == 2 then break end
			S.sh("sleep 0.02")
		end
		S.sh("kill -INT " .. pid)
		local line, status = p:read("l"), p:read("l")
		p:close()
		cleanup()
		assert.are.equal("interrupted 2\tinterrupted 2", line)
		assert.are.equal("0", status)
	end)
end)
