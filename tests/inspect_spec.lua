-- SPDX-License-Identifier: MIT
-- Content inspection out of sbxlua (core/super/inspect.c, inspect_worker.c):
-- libmagic runs in a confined worker, never in the process that supervises
-- the boxes; the loop serves every other box while a box's files are typed;
-- a per-run budget leaves the rest untyped and counted (inspect_skipped);
-- a worker that dies loses its file, never sbxlua; an exec is a memfd's
-- only when the file it runs is one.  Each attack is a hostile sample.
-- scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"
local core = require "sbx.core"
local sbx = require "sbx"
local cjson = require "cjson"

-- a shell line that writes n files of 64 KiB of newlines (each costs
-- libmagic 0.2-0.5 s of CPU) into dir
local function newlines(n, dir)
	return ("i=0; while [ $i -lt %d ]; do head -c 65536 /dev/zero | tr '\\0' '\\n' > %s/f$i; i=$((i+1)); done")
		:format(n, dir)
end

-- the lines of a process's /proc status, by key
local function status(pid)
	local t = {}
	for l in (S.read("/proc/" .. pid .. "/status") or ""):gmatch("[^\n]+") do
		local k, v = l:match("^([^:]+):%s*(.*)$")
		if k then t[k] = v end
	end
	return t
end

local function maps_libmagic()
	return (S.read("/proc/self/maps") or ""):find("libmagic", 1, true) ~= nil
end

describe("inspection worker [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	it("is confined: no capability, no_new_privs, seccomp filter, limits; ended on request", function()
		local pid = assert(core.inspect_worker())
		assert.are.equal(pid, core.inspect_worker()) -- one worker
		local st = status(pid)
		assert.are.equal("1", st.NoNewPrivs)
		assert.are.equal("2", st.Seccomp)
		assert.are.equal("0000000000000000", st.CapEff)
		assert.are.equal("0000000000000000", st.CapPrm)
		if S.euid() == 0 then
			assert.are.equal("65534\t65534\t65534\t65534", st.Uid)
			assert.are.equal("65534\t65534\t65534\t65534", st.Gid)
			assert.are.equal("", st.Groups)
		end
		local limits = S.read("/proc/" .. pid .. "/limits") or ""
		assert.matches("Max cpu time%s+300%s+300", limits)
		assert.matches("Max file size%s+0%s+0", limits)
		assert.matches("Max open files%s+4%s+4", limits)
		assert.is_nil(limits:match("Max address space%s+unlimited"), limits)
		-- its own session: no terminal's signals reach it
		local stat = S.read("/proc/" .. pid .. "/stat")
		assert.are.equal(tostring(pid), stat:match("^%d+ %b() %S+ %d+ %d+ (%d+)"))
		core.inspect_stop()
		assert.is_nil(S.read("/proc/" .. pid .. "/status"), "the worker outlived its stop")
		assert.is_false(maps_libmagic(), "sbxlua mapped libmagic")
	end)

	it("takes no argument", function()
		assert.has_error(function() core.inspect_worker(1) end,
			"bad argument #1 to 'inspect_worker' (no value expected)")
		assert.has_error(function() core.inspect_stop(true) end,
			"bad argument #1 to 'inspect_stop' (no value expected)")
	end)

	it("types 16 files of 64 KiB of newlines while sbxlua's own CPU stays small", function()
		local t0 = os.clock() -- this process's CPU (the supervisor's), not its children's
		local r = S.run(newlines(16, "/tmp"), { capture = { places = { "/tmp" } } })
		local cpu = os.clock() - t0
		io.stderr:write(("# inspect: supervisor CPU for 16 files of newlines: %.3f s (box %.3f s)\n")
			:format(cpu, r.cpu or -1))
		assert.are.equal("exit", r.outcome)
		local n = 0
		for _, f in ipairs(r.files) do
			if f.path:find("^/tmp/f%d+$") then
				n = n + 1
				assert.are.equal("ASCII text", f.filetype, f.path)
				assert.are.equal("text/plain", f.mime, f.path)
			end
		end
		assert.are.equal(16, n)
		assert.are.equal(0, r.inspect_skipped)
		-- the structural fact: the supervisor never mapped the parser
		assert.is_false(maps_libmagic(), "sbxlua mapped libmagic")
	end)

	it("leaves the files past the run's budget untyped, counts them and says so", function()
		-- 60 files: some 15-30 s of libmagic's CPU, past the 10 s budget
		local _, err, code, res = S.json_run("--verbose", "--explore", "/bin/sh", "-c", newlines(60, "/tmp"))
		assert.are.equal(0, code, err)
		assert.is_table(res, err)
		local typed, untyped = 0, 0
		for _, f in ipairs(res.behaviour.files_dropped) do
			if f.path:find("^/tmp/f%d+$") then
				if f.type then
					typed = typed + 1
					assert.are.equal("ASCII text", f.type)
				else
					untyped = untyped + 1
				end
			end
		end
		assert.are.equal(60, typed + untyped)
		assert.truthy(typed >= 1, "none typed")
		assert.truthy(untyped >= 1, "all typed: the budget did not hold")
		assert.are.equal(untyped, res.inspect_skipped)
		assert.is_true(res.files_bounds.types)
		assert.matches("written: stopped at a bound (types)", err, 1, true)
	end)

	it("a worker killed while it types loses its file, never sbxlua; the rest are typed", function()
		local pid = assert(core.inspect_worker())
		local base = S.read("/proc/" .. pid .. "/stat"):match("^%d+ %b() " .. ("%S+ "):rep(11) .. "(%d+)")
		-- kills the worker once it has used CPU on a file (its utime moved)
		local done = os.tmpname()
		os.execute(("sh -c 'while [ \"$(cut -d\" \" -f14 /proc/%d/stat 2>/dev/null)\" = %s ]; do sleep 0.01; done; "
			.. "kill -9 %d; echo killed > %s' >/dev/null 2>&1 &"):format(pid, base, pid, S.q(done)))
		local r = S.run(newlines(6, "/tmp"), { capture = { places = { "/tmp" } } })
		assert.are.equal("exit", r.outcome)
		assert.are.equal("killed\n", S.read(done))
		os.remove(done)
		local typed, untyped = 0, 0
		for _, f in ipairs(r.files) do
			if f.path:find("^/tmp/f%d+$") then
				if f.filetype then typed = typed + 1 else untyped = untyped + 1 end
			end
		end
		assert.are.equal(6, typed + untyped)
		assert.truthy(untyped >= 1, "no file lost with the worker")
		assert.truthy(typed >= 1, "no worker after the first")
		assert.are.equal(untyped, r.inspect_skipped)
		assert.is_true(r.files_bounds.types)
	end)
end)

describe("runs in turn [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	it("a box of one file is collected before a box of many that ended first", function()
		-- a FIFO both boxes see: the few reads it to its end, which comes
		-- when the many's last process is gone (its writer closed), so
		-- the many's files are queued first
		local d, rm = S.tmpdir()
		os.execute("mkfifo -m 0666 " .. S.q(d .. "/fifo") .. " && chmod 0777 " .. S.q(d))
		local function spec(script)
			local extra = { mounts = sbx.minimal_mounts(), capture = { places = { "/tmp" } } }
			table.insert(extra.mounts, { type = "bind", src = d, dst = "/flag", rw = true })
			return assert(core.box(S.spec(script, extra)))
		end
		local pool = core.pool()
		local many = assert(pool:start(spec("exec 3>/flag/fifo; " .. newlines(30, "/tmp"))))
		local few = assert(pool:start(spec("cat /flag/fifo; echo x > /tmp/x")))
		local first, r1 = pool:wait()
		local second, r2 = pool:wait()
		pool:close()
		rm()
		assert.are.same({ few, many }, { first, second })
		assert.are.equal("exit", r1.outcome)
		assert.are.equal("/tmp/x", r1.files[1].path)
		assert.are.equal("ASCII text", r1.files[1].filetype)
		assert.are.equal(0, r1.inspect_skipped)
		assert.are.equal(30, #r2.files)
	end)
end)

describe("a memfd exec [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	local function execs(...)
		local _, err, code, res = S.json_run("--explore", "build/tests/memfd_path", ...)
		assert.is_table(res, err)
		local list = {}
		for _, e in ipairs(res.events) do
			if e.kind == "exec" then list[#list + 1] = e end
		end
		return list, res, code, err
	end

	it("is not what execveat(fd, \"/memfd:x\") of a regular file is", function()
		local list, res, code, err = execs("path")
		assert.are.equal(0, code, err)
		local seen = false
		for _, e in ipairs(list) do
			assert.is_nil(e.sha256, e.path)
			assert.is_nil(e.type, e.path)
			seen = seen or e.path == "/memfd:x"
		end
		assert.is_true(seen, "the exec of the path was not recorded")
		assert.are.same({}, res.behaviour.memory_files or {})
		for _, f in ipairs(res.behaviour.files_dropped) do
			assert.is_nil(f.executed_from_memory, f.path)
		end
	end)

	it("is what execveat(memfd, \"\", AT_EMPTY_PATH) is: hashed and typed by the worker", function()
		local list, _, code, err = execs("memfd")
		assert.are.equal(0, code, err)
		local mem = {}
		for _, e in ipairs(list) do
			if e.sha256 then mem[#mem + 1] = e end
		end
		assert.are.equal(1, #mem)
		assert.are.equal("/memfd:x (deleted)", mem[1].path)
		assert.truthy(mem[1].type:find("^ELF 64%-bit"), mem[1].type)
	end)
end)

describe("a batch neighbour [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	it("ends at its wall clock while another box's files are typed", function()
		local d, rm = S.tmpdir()
		local progs = d .. "/progs"
		os.execute("mkdir -p " .. S.q(progs))
		local function prog(name, body)
			S.write(progs .. "/" .. name, "#!/bin/sh\n" .. body .. "\n")
			os.execute("chmod 755 " .. S.q(progs .. "/" .. name))
		end
		-- one process writes them (the box ends well within its wall clock)
		prog("a-typer.sh", "exec python3 -c 'for i in range(40): open(\"/tmp/f%d\" % i, \"w\").write(\"\\n\" * 65536)'")
		prog("b-sleeper.sh", "exec sleep 60")
		os.execute("chmod -R a+rX " .. S.q(d))
		local err = os.tmpname()
		local out = S.sh(S.bin .. " batch.lua -j 2 --wall 2 --sleep-skip 0 --progress never "
			.. S.q(progs) .. " 2>" .. err .. " </dev/null")
		os.remove(err)
		rm()
		local order, by = {}, {}
		for l in out:gmatch("[^\n]+") do
			local r = cjson.decode(l)
			local name = r.program:match("[^/]+$")
			order[#order + 1] = name
			by[name] = r
		end
		-- the lines in the programs' order (docs/batch.md), whichever ended first
		assert.are.same({ "a-typer.sh", "b-sleeper.sh" }, order)
		assert.are.equal("wall", by["b-sleeper.sh"].outcome)
		io.stderr:write(("# inspect: neighbour's elapsed %.2f s (--wall 2) beside %d files typed, %d skipped\n")
			:format(by["b-sleeper.sh"].timings.elapsed, 40 - by["a-typer.sh"].run.inspect_skipped,
				by["a-typer.sh"].run.inspect_skipped))
		local typed = 0
		for _, f in ipairs(by["a-typer.sh"].run.behaviour.files_dropped) do
			if f.type then typed = typed + 1 end
		end
		assert.truthy(typed >= 1)
	end)
end)

describe("libmagic under strace -f [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	it("is opened only by the worker, never by sbxlua's own process", function()
		if S.asan then pending("an instrumented sbxlua under strace") return end
		local tr = os.tmpname()
		local _, code = S.sh("strace -f -qq -e trace=openat,open,setresuid,prctl,seccomp -o " .. S.q(tr) .. " "
			.. S.q(S.bin) .. " run.lua /bin/sh -c 'echo x > /tmp/x' 2>/dev/null </dev/null")
		local t = S.read(tr) or ""
		os.remove(tr)
		assert.are.equal(0, code)
		local main = t:match("^(%d+) ")
		local opener
		for pid, line in t:gmatch("(%d+) +([^\n]*)") do
			if line:find("libmagic%.so") and not line:find("ENOENT") then
				assert.are_not.equal(main, pid, "sbxlua opened libmagic")
				opener = opener or pid
				assert.are.equal(opener, pid, "two processes opened libmagic")
			end
		end
		assert.truthy(opener, "no process opened libmagic")
		-- the opener confined itself before it read a byte of the box's
		local after = t:match("\n" .. opener .. " +[^\n]*libmagic%.so.-(\n.*)$")
		assert.matches("\n" .. opener .. " +prctl%(PR_SET_NO_NEW_PRIVS", after)
		assert.matches("\n" .. opener .. " +seccomp%(SECCOMP_SET_MODE_FILTER", after)
	end)
end)
