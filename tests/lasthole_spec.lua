-- SPDX-License-Identifier: MIT
-- The last holes, each written as the attack or the mistake: a limit that
-- refuses something is named on evidence; the box's own files lock as
-- usual; the report has a channel no program can write; the process backend holds
-- its whole tree; a learned profile's opened directory covers itself only.
-- scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"

local PY = "/usr/bin/python3"

-- sbxlua run.lua args... with the shell's redirections `redir` (e.g.
-- "3>FILE"): stdout, stderr, status
local function run_redir(redir, ...)
	return S.sh_err(S.bin .. " run.lua " .. S.quoted(...) .. " " .. (redir or ""))
end

-- the enforcement of the memory limit here (cgroup or sampled)
local function memory_enforcement()
	local _, _, _, j = S.json_run("/bin/true")
	return j and j.limits and j.limits.memory and j.limits.memory.enforcement
end

describe("the last holes [" .. S.priv .. "]", function()
	local dir, rm
	before_each(function() dir, rm = S.tmpdir() end)
	after_each(function() rm() end)

	describe("a limit that refuses something is named", function()
		it("an allocation past the memory limit: the report says the limit refused it", function()
			local _, err, code = S.runlua("--mem", "64M", PY, "-c", "x = bytearray(512 << 20)")
			if memory_enforcement() == "cgroup" then
				-- the allocation is granted and touched: the cgroup ends the box
				assert.are.equal(124, code, err)
				assert.truthy(err:find("sandbox: killed: memory limit (64 MiB)\n", 1, true), err)
			else
				-- the kernel refuses the mapping (the program's MemoryError),
				-- and the report names the limit that did, from the call seen
				assert.are.equal(1, code, err)
				assert.truthy(err:find("MemoryError"), err)
				assert.truthy(err:find("\nsandbox: note: memory limit %(64 MiB%) refused an allocation of 512 MiB"),
					err)
			end
		end)

		it("forks past the task limit, a CPU hog per core beside: the report says the limit was reached", function()
			-- the sampler may look too late under load (the shell's fork
			-- fails at RLIMIT_NPROC and it exits first); the proc
			-- connector's count of live tasks is exact
			local hogs = {}
			for _ = 1, tonumber((S.sh("getconf _NPROCESSORS_ONLN"))) or 2 do
				hogs[#hogs + 1] = S.sh("yes >/dev/null 2>&1 & echo $!"):match("%d+")
			end
			local _, err, code, j = S.json_run("--pids", "16", "/bin/sh", "-c",
				"for i in $(seq 100); do sleep 20 & done; wait")
			os.execute("kill " .. table.concat(hogs, " "))
			-- the connector's events, whose count of live tasks is exact
			if not (j and j.measured and (j.measured.proc_events or 0) > 0) then
				-- as an unprivileged caller the connector refuses the
				-- subscription: no exact count, and no note from a guess
				assert.falsy(err:find("reached", 1, true), err)
				return pending("the proc connector is not this caller's: no evidence of the tasks' count")
			end
			if code == 124 then
				-- the sampler saw it in time: the limit ended the box
				assert.truthy(err:find("sandbox: killed: process limit (16)\n", 1, true), err)
			else
				assert.truthy(err:find("\nsandbox: note: process limit (16 tasks) reached\n", 1, true), err)
			end
		end)

		it("16 threads at once for an instant: the limit's line or the note, never silence", function()
			local _, err, code, j = S.json_run("--pids", "16", PY, "-c", [[
import threading
b = threading.Barrier(16)
ts = [threading.Thread(target=b.wait) for _ in range(15)]
for t in ts: t.start()
b.wait()
for t in ts: t.join()
]])
			if not (j and j.measured and (j.measured.proc_events or 0) > 0) then
				return pending("the proc connector is not this caller's: no evidence of the tasks' count")
			end
			if code == 124 then
				assert.truthy(err:find("sandbox: killed: process limit (16)\n", 1, true), err)
			else
				-- the box's init and the program's 16 tasks, in the note's event
				local note
				for _, e in ipairs(j.events) do
					if e.kind == "note" and e.cause == "tasks" then note = e end
				end
				assert.are.equal(17, note and note.tasks, err)
				assert.are.equal(0, code, err)
				assert.are.equal("sandbox: exit 0\nsandbox: note: process limit (16 tasks) reached\n", err)
			end
		end)

		it("tasks under the limit say nothing, on the same count", function()
			local _, err, code = S.runlua("--pids", "16", "/bin/sh", "-c", "sleep 0.1 & sleep 0.1 & wait")
			assert.are.equal(0, code, err)
			assert.are.equal("sandbox: exit 0\n", err)
		end)

		it("the note's words, from the count (sbx.report)", function()
			local report = require "sbx.report"
			local ev = report.events({ outcome = "exit", code = 2, tasks_seen = 16 }, { limits = { tasks = 16 } })
			local notes = {}
			for _, e in ipairs(ev) do
				if e.kind == "note" then notes[#notes + 1] = e.text end
			end
			assert.same({ "note: process limit (16 tasks) reached" }, notes)
			ev = report.events({ outcome = "exit", code = 0, tasks_seen = 15 }, { limits = { tasks = 16 } })
			for _, e in ipairs(ev) do assert.are_not.equal("note", e.kind) end
		end)

		it("an allocation under the limit says nothing", function()
			local _, err, code = S.runlua("--mem", "64M", PY, "-c", "x = bytearray(8 << 20)")
			assert.are.equal(0, code, err)
			assert.are.equal("sandbox: exit 0\n", err)
		end)

		it("a /tmp filled past its size: the report says it was full, the program saw ENOSPC", function()
			local out, err, code = S.runlua("--tmp-size", "1M", "sh", "-c",
				"head -c 3000000 /dev/zero > /tmp/big 2>/dev/null; echo rc=$?; df -k /tmp | tail -1")
			assert.are.equal(0, code, err)
			assert.matches("^rc=1\n", out)
			assert.matches("\nsandbox: note: /tmp %(1 MiB%) was full when the box ended\n", err)
		end)

		it("a /tmp whose inodes ran out is full too, with blocks to spare", function()
			local out, err, code = S.runlua("--tmp-size", "64M", PY, "-c", "import os\ni = 0\n"
				.. "try:\n  while True:\n    open('/tmp/f%d' % i, 'w').close(); i += 1\n"
				.. "except OSError as e:\n  print('made=%d errno=%d' % (i, e.errno))")
			assert.are.equal(0, code, err)
			local made = tonumber(out:match("made=(%d+)"))
			assert.truthy(made and made > 0, out)
			assert.matches("errno=28", out) -- ENOSPC, with 64 MiB of blocks left
			assert.matches("\nsandbox: note: /tmp %(64 MiB%) was full when the box ended\n", err)
		end)

		it("a /tmp filled and emptied again, or never filled, says nothing", function()
			for _, script in ipairs { "head -c 3000000 /dev/zero > /tmp/big 2>/dev/null; rm -f /tmp/big",
				"head -c 100000 /dev/zero > /tmp/small" } do
				local _, err, code = S.runlua("--tmp-size", "1M", "sh", "-c", script)
				assert.are.equal(0, code, err)
				assert.are.equal("sandbox: exit 0\n", err)
			end
		end)
	end)

	-- No lock of the box on a host file.  The box holds the file open and
	-- has tried its locks (blocking ones) when the host locks it; the host
	-- must get the lock, and the box ENOLCK, in each profile.
	describe("locks", function()
		local PROFILES = { { "--profile", "default" }, { "--profile", "watch" }, { "--profile", "strict" },
			{ "--explore" } }

		-- the profile's options, then the rest: an argument list
		local function with(prof, ...)
			local args = { table.unpack(prof) }
			for _, a in ipairs { ... } do args[#args + 1] = a end
			return table.unpack(args)
		end

		-- dirs for --rw and a file in them the box may write, whoever runs
		-- the box (a root caller's box writes as a host id of its own)
		local function shared(dirs, file)
			for _, d in ipairs(dirs) do
				assert(os.execute("mkdir " .. S.q(d) .. " && chmod 1777 " .. S.q(d)))
			end
			assert(os.execute("echo host >" .. S.q(file) .. " && chmod 666 " .. S.q(file)))
		end

		-- the box's side: open the file (for writing when rw), take each
		-- lock blocking, say what it got in /work/tried, then hold the file
		-- open until the host says done
		local TRY = [[
import errno, fcntl, os, struct, sys, time
path, rw = sys.argv[1], sys.argv[2] == "rw"
fd = os.open(path, os.O_RDWR if rw else os.O_RDONLY)
kind = fcntl.LOCK_EX if rw else fcntl.LOCK_SH
ofd = struct.pack("hhxxxxqqixxxx", fcntl.F_WRLCK if rw else fcntl.F_RDLCK, 0, 0, 0, 0)
locks = (("flock", lambda: fcntl.flock(fd, fcntl.LOCK_EX)),
         ("lockf", lambda: fcntl.lockf(fd, kind)),
         ("ofd", lambda: fcntl.fcntl(fd, fcntl.F_OFD_SETLKW, ofd)))
]] .. S.PY_TRY_LOCKS

		-- what the host gets on path now: flock -w 2, python3's lockf
		local function host_locks(path)
			local _, fl = S.sh("flock -w 2 " .. S.q(path) .. " true")
			local py = S.sh(S.q(PY) .. " -c " .. S.q([[
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR)
fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
print("lockf ok")
]]) .. " " .. S.q(path) .. " 2>&1")
			return fl, py
		end

		-- `sbxlua run.lua args...` in the background (its stdout, stderr
		-- and status in box.out, box.err and box.status of dir), a box that
		-- makes work/tried then waits for work/done; meanwhile the host
		-- tries file's locks.  Whether the box tried, its stderr, the
		-- host's flock status, its lockf line and the locks /proc/locks
		-- names on file.
		local function while_box(work, file, ...)
			return S.meanwhile(dir .. "/box", work, { ... }, function()
				local fl, py = host_locks(file)
				return fl, py, S.proc_locks(file)
			end)
		end

		for _, prof in ipairs(PROFILES) do
			local pname = table.concat(prof, " ")
			for _, how in ipairs { "ro", "rw" } do
				it(pname .. ": a host lock on an --" .. how .. " file succeeds while the box tries LOCK_EX on it",
					function()
						local work = dir .. "/work"
						local file = dir .. "/data/shared"
						shared({ work, dir .. "/data" }, file)
						local bind = how == "ro" and { "--ro", file .. ":/srv/shared" }
							or { "--rw", dir .. "/data:/srv" }
						local tried, err, fl, py, held = while_box(work, file, with(prof, bind[1], bind[2],
							"--rw", work .. ":/work", PY, "-c", TRY, "/srv/shared", how))
						assert.truthy(tried, err)
						assert.are.equal(0, fl, "host flock -w 2 failed")
						assert.are.equal("lockf ok\n", py)
						assert.are.equal("", held)
						assert.are.equal("flock ENOLCK\nlockf ENOLCK\nofd ENOLCK\n", S.read(dir .. "/box.out"))
						assert.are.equal("0\n", S.read(dir .. "/box.status"), err)
					end)
			end

			it(pname .. ": the box's own /tmp locks: contention inside, a blocking wait granted", function()
				-- the holder locks; a second process's LOCK_NB fails; a third
				-- waits in flock (its /proc/PID/syscall says 73, flock) until
				-- the holder closes, then gets it
				local out, err, code = S.runlua(with(prof, PY, "-c", [[
import fcntl, os, time
fd = os.open("/tmp/lock", os.O_RDWR | os.O_CREAT)
fcntl.flock(fd, fcntl.LOCK_EX)
pid = os.fork()
if pid == 0:
    try:
        fcntl.flock(os.open("/tmp/lock", os.O_RDWR), fcntl.LOCK_EX | fcntl.LOCK_NB)
        os._exit(0)
    except OSError as e:
        os._exit(e.errno)
print("second", os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]), flush=True)
w = os.fork()
if w == 0:
    os.close(fd)
    fcntl.flock(os.open("/tmp/lock", os.O_RDWR), fcntl.LOCK_EX)
    os.write(1, b"granted\n")
    os._exit(0)
while open("/proc/%d/syscall" % w).read().split()[0] != "73":
    time.sleep(0.01)
print("waiting", flush=True)
os.close(fd)
print("waiter", os.waitstatus_to_exitcode(os.waitpid(w, 0)[1]), flush=True)
]]))
				assert.are.equal(0, code, err)
				assert.are.equal("second 11\nwaiting\ngranted\nwaiter 0\n", out)
			end)

			it(pname .. ": fcntl locks on the box's own file keep their meaning; F_GETFL stays in the kernel",
				function()
					local out, err, code = S.runlua(with(prof, PY, "-c", [[
import fcntl, os
fd = os.open("/tmp/own", os.O_RDWR | os.O_CREAT)
fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
fcntl.lockf(fd, fcntl.LOCK_UN)
pid = os.fork()
if pid == 0:
    # another process, another open file: the lock is free again
    fd2 = os.open("/tmp/own", os.O_RDWR)
    fcntl.lockf(fd2, fcntl.LOCK_EX | fcntl.LOCK_NB)
    os._exit(0)
print("child", os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
pid = os.fork()
if pid == 0:
    fd2 = os.open("/tmp/own", os.O_RDWR)
    try:
        fcntl.lockf(fd2, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os._exit(0)
    except OSError as e:
        os._exit(e.errno)
print("held", os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
print("flags", fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE == os.O_RDWR)
]]))
					assert.are.equal(0, code, err)
					assert.are.equal("child 0\nheld 11\nflags True\n", out)
				end)

			it(pname .. ": leases are refused, on the box's own files and the host's", function()
				local out, err, code = S.runlua(with(prof, "--ro", PY .. ":/srv/prog", PY, "-c", [[
import fcntl, os
for path in ("/tmp/own", "/srv/prog"):
    fd = os.open(path, os.O_RDONLY | os.O_CREAT)
    try:
        fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_RDLCK)
        print(path, "leased")
    except OSError as e:
        print(path, e.errno)
]]))
				assert.are.equal(0, code, err)
				assert.are.equal("/tmp/own 1\n/srv/prog 1\n", out)
			end)
		end

		it("a blocking wait that is never granted stays killable: the box ends at its wall clock", function()
			local out, err, code = S.runlua("--wall", "2", PY, "-c", [[
import fcntl, os
fd = os.open("/tmp/l", os.O_RDWR | os.O_CREAT)
fcntl.flock(fd, fcntl.LOCK_EX)
if os.fork() == 0:
    fcntl.flock(os.open("/tmp/l", os.O_RDWR), fcntl.LOCK_EX)
    print("granted")
os.wait()
]])
			assert.are.equal(124, code, err)
			assert.are.equal("", out)
			assert.are.equal("sandbox: killed: wall clock (2 s)\n", err)
		end)

		it("a thread that dup2s a host file over the checked descriptor never ends with a host lock", function()
			local work = dir .. "/work"
			local file = dir .. "/shared"
			shared({ work }, file)
			-- n is the box's own file and the host's file by turns; the
			-- main thread locks n (flock, lockf, OFD) as fast as it can
			local tried, err, fl, py, held = while_box(work, file, "--ro", file .. ":/srv/shared",
				"--rw", work .. ":/work", PY, "-c", [[
import errno, fcntl, os, struct, sys, threading, time
sys.setswitchinterval(1e-4)  # the threads take turns often
own = os.open("/tmp/own", os.O_RDWR | os.O_CREAT)
host = os.open("/srv/shared", os.O_RDONLY)
n = os.dup(own)
stop = False
def swap():
    while not stop:
        os.dup2(host, n)
        os.dup2(own, n)
t = threading.Thread(target=swap)
t.start()
rd = struct.pack("hhxxxxqqixxxx", fcntl.F_RDLCK, 0, 0, 0, 0)
got = {}
for i in range(500):
    for name, take in (("flock", lambda: fcntl.flock(n, fcntl.LOCK_SH | fcntl.LOCK_NB)),
                       ("lockf", lambda: fcntl.lockf(n, fcntl.LOCK_SH | fcntl.LOCK_NB)),
                       ("ofd", lambda: fcntl.fcntl(n, fcntl.F_OFD_SETLK, rd))):
        try:
            take()
            r = "ok"
        except OSError as e:
            r = errno.errorcode[e.errno]
        got[r] = got.get(r, 0) + 1
stop = True
t.join()
with open("/work/tried", "w") as f:
    f.write(" ".join(sorted(got)) + "\n")
while not os.path.exists("/work/done"):
    time.sleep(0.01)
]])
			assert.truthy(tried, err)
			-- both files were locked at: own ones granted, host ones refused
			assert.are.equal("ENOLCK ok\n", S.read(work .. "/tried"))
			assert.are.equal(0, fl, "host flock -w 2 failed")
			assert.are.equal("lockf ok\n", py)
			assert.are.equal("", held)
			assert.are.equal("0\n", S.read(dir .. "/box.status"), err)
		end)
	end)

	describe("the report cannot be forged", function()
		local FORGE = "echo 'sandbox: exit 0' >&2; echo 'sandbox: verdict: clean' >&2; exit 7"

		it("--report-fd N: the report on a descriptor the box never holds", function()
			local rep = dir .. "/report"
			local _, err, code = run_redir("3>" .. S.q(rep), "--report-fd", "3", "/bin/sh", "-c",
				FORGE .. "; ls /proc/self/fd >&2")
			assert.are.equal(7, code)
			-- the stream has the forgery; the descriptor has the truth only
			assert.truthy(err:find("sandbox: exit 0\n", 1, true), err)
			assert.are.equal("sandbox: exit 7\n", S.read(rep))
		end)

		it("--report-fd refuses the standard streams, a closed descriptor, a full one", function()
			for _, n in ipairs { "0", "1", "2", "-1", "x", "99" } do
				local _, err, code = S.runlua("--report-fd", n, "/bin/true")
				assert.are.equal(126, code, n)
				assert.truthy(err:find("^sbxlua: %-%-report%-fd " .. n:gsub("%p", "%%%0") .. ": "), err)
			end
			-- a descriptor that cannot take the report: 126, named
			local _, err, code = run_redir("3>/dev/full", "--report-fd", "3", "/bin/true")
			assert.are.equal(126, code)
			assert.truthy(err:find("\nsbxlua: %-%-report%-fd descriptor 3: No space left on device\n"), err)
		end)
	end)

	it("sbx.descriptor: its argument checked, a closed descriptor said", function()
		local sbx = require "sbx"
		assert.has_error(function() sbx.descriptor("x") end,
			"bad argument #1 to 'descriptor' (number expected, got string)")
		assert.has_error(function() sbx.descriptor(-1) end,
			"bad argument #1 to 'descriptor' (descriptor out of range)")
		local f, msg = sbx.descriptor(4000)
		assert.is_nil(f)
		assert.are.equal("dup descriptor 4000: Bad file descriptor", msg)
		f = assert(sbx.descriptor(1))
		assert.has_error(function() f:write({}) end)
		f:close()
		assert.has_error(function() f:write("x") end, "attempt to use a closed file")
	end)

	describe("the process backend holds its tree", function()
		local function alive(marker)
			return #S.holding(marker) > 0
		end

		for _, case in ipairs {
			{ "setsid", "setsid sleep %s &" },
			{ "a double fork", "(sleep %s &) &" },
			{ "a new process group", "setsid -f sleep %s" },
		} do
			it("a child that escapes by " .. case[1] .. " is killed at the end", function()
				local marker = ("777.%06d%s"):format(math.random(0, 999999), S.pid())
				local _, err = S.runlua("--backend", "process", "/bin/sh", "-c",
					case[2]:format(marker) .. " sleep 0.3")
				S.sh("sleep 0.3")
				local left = alive(marker)
				if left then S.sh("pkill -KILL -f " .. S.q(marker)) end
				assert.is_false(left, err)
			end)
		end
	end)

	describe("learn.lua", function()
		it("an opened directory allows that directory, not what lies under it", function()
			local p = dir .. "/p.lua"
			-- the same calls in both programs: only the file read differs
			local _, lcode = S.sh(S.bin .. " learn.lua -o " .. S.q(p)
				.. " /bin/sh -c 'ls / >/dev/null; cat /etc/hostname' >/dev/null 2>&1 </dev/null")
			assert.are.equal(0, lcode)
			local prof = S.read(p)
			assert.truthy(prof:find('\t"/", %-%- open'), prof)
			local _, err, code = S.runlua("--profile", p, "--mode", "stop", "/bin/sh", "-c",
				"ls / >/dev/null; cat /etc/hostname")
			assert.are.equal(0, code, err)
			-- a file under the opened directory is refused by name
			_, err, code = S.runlua("--profile", p, "--mode", "stop", "/bin/sh", "-c",
				"ls / >/dev/null; cat /etc/passwd")
			assert.are.equal(125, code, err)
			assert.truthy(err:find("/etc/passwd", 1, true), err)
		end)

		it("notify.open_exact must be a list of absolute paths", function()
			local sbx = require "sbx"
			for _, bad in ipairs { { { "rel" }, "'rel' is not an absolute path" }, { "/x", "must be a list of strings" } } do
				local ok, msg = pcall(sbx.run, { argv = { "/bin/true" }, path = "/bin/true",
					notify = { open_exact = bad[1] } })
				assert.is_false(ok)
				assert.truthy(msg:find("field 'notify.open_exact'", 1, true) and msg:find(bad[2], 1, true), msg)
			end
		end)
	end)
end)
