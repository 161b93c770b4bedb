-- SPDX-License-Identifier: MIT
-- Real boxes, checked from inside through the kernel's own view and from
-- the host.  scripts/test.sh runs this file as root and as uid 65534.
local sbx = require "sbx"
local S = require "support"

-- S.run(script) and the non-empty lines of its stdout
local function run_lines(script)
	local r = S.run(script)
	return r, S.matches(r.stdout, "[^\n]+")
end

describe("box [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	it("holds no descriptor of a run once sbx.run returns, without the collector", function()
		-- a long REPL session or a batch of thousands of boxes pays for
		-- anything a run leaves open until a later collection
		local file = os.tmpname()
		S.write(file, "from a file\n")
		local cases = {
			{ "captured output", "echo out; echo err >&2" },
			{ "stdin from memory", "cat", { stdin = "data\n" } },
			{ "stdin from a file", "cat", { stdin = assert(sbx.open_file(file)) } },
			{ "the wall clock", "sleep 30", { wall = 0.5 } },
			{ "an output cap", "yes", { output_limit = 4096 } },
			{ "a set-up failure", "true", { cwd = "/nonexistent" } },
			{ "a cgroup, where usable", "true", { cgroup = true } },
			{ "a pseudo-terminal", "echo hi", { pty = true, new_session = true } },
		}
		collectgarbage()
		collectgarbage("stop")
		local before = S.fds_now()
		local diffs = {}
		for _, c in ipairs(cases) do
			local r = assert(sbx.run(S.spec(c[2], c[3])))
			assert.is_string(r.outcome)
			local d = S.fds_diff(before, S.fds_now())
			if d ~= "" then diffs[#diffs + 1] = c[1] .. ": " .. d end
		end
		local rs = assert(sbx.run_many { S.spec("true"), S.spec("exit 3") })
		assert.are.equal(3, rs[2].code)
		local d = S.fds_diff(before, S.fds_now())
		if d ~= "" then diffs[#diffs + 1] = "run_many: " .. d end
		collectgarbage("restart")
		os.remove(file)
		assert.are.equal("", table.concat(diffs, "; "))
	end)

	it("drops every capability and sets no_new_privs", function()
		local r = S.run("cat /proc/self/status")
		assert.are.equal("exit", r.outcome)
		for _, set in ipairs { "CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb" } do
			assert.matches("\n" .. set .. ":%s+0000000000000000\n", r.stdout)
		end
		assert.matches("\nNoNewPrivs:%s+1\n", r.stdout)
	end)

	it("creates every namespace, different from the host's", function()
		local host = assert(sbx.ns_ids())
		local r = S.run("for n in user mnt pid ipc uts net cgroup; do "
			.. "printf '%s ' $n; readlink /proc/self/ns/$n; done")
		assert.are.equal("exit", r.outcome)
		local inside = {}
		for n, id in r.stdout:gmatch("(%w+) (%S+)") do inside[n] = id end
		local proc = { mount = "mnt" }
		for _, name in ipairs(sbx.namespaces()) do
			local id = inside[proc[name] or name]
			assert.is_string(id, name)
			assert.are_not.equal(host[name], id, name)
			assert.matches("^" .. (proc[name] or name) .. ":%[%d+%]$", id)
		end
	end)

	it("maps the box user as asked, and names the box", function()
		local _, l = run_lines("cat /proc/self/uid_map /proc/self/gid_map; id -u; id -g; hostname; "
			.. "cat /proc/self/setgroups")
		-- a root caller's box maps to the unprivileged host id by default
		local root = S.euid() == 0
		local hu = root and require("sbx.stdbox").root_host_id or S.euid()
		local hg = root and hu or tonumber((S.sh("id -g")))
		assert.are.same({ "1000", tostring(hu), "1" }, { l[1]:match("(%d+)%s+(%d+)%s+(%d+)") })
		assert.are.same({ "1000", tostring(hg), "1" }, { l[2]:match("(%d+)%s+(%d+)%s+(%d+)") })
		assert.are.equal("1000", l[3])
		assert.are.equal("1000", l[4])
		assert.are.equal("sbxtest", l[5])
		-- an unprivileged caller must deny setgroups; root drops its groups
		assert.are.equal(root and "allow" or "deny", l[6])
	end)

	it("binds a source under a directory closed to the box's host id", function()
		-- a root caller's work under /root (0700) and a box mapped to
		-- 65534: the source is opened with the caller's ids, before the
		-- box takes its own
		local d, rm = S.tmpdir()
		os.execute("mkdir -m 0755 " .. S.q(d .. "/open") .. " && echo data-ok > "
			.. S.q(d .. "/open/data") .. " && chmod 0644 " .. S.q(d .. "/open/data")
			.. " && chmod 0700 " .. S.q(d))
		local extra = { mounts = sbx.minimal_mounts() }
		table.insert(extra.mounts, { type = "bind", src = d .. "/open", dst = "/data" })
		if S.euid() == 0 then extra.host_uid, extra.host_gid = 65534, 65534 end
		local r = S.run("cat /data/data; cat /proc/self/uid_map", extra)
		rm()
		assert.are.equal("exit", r.outcome, r.stderr)
		assert.matches("^data%-ok\n", r.stdout)
		if S.euid() == 0 then assert.matches("1000%s+65534%s+1", r.stdout) end
	end)

	it("has its user namespace created by its host id, whose counters it spends", function()
		-- the kernel charges a namespace's per-user counters (inotify,
		-- pending signals, ...) at the host's level to the id that created
		-- it: a box's must be its own host id's, never host root's.  A
		-- child lua runs the box; the host asks the kernel who owns the
		-- box's user namespace (NS_GET_OWNER_UID).
		local id = S.euid() == 0 and 65534 or S.euid()
		local script = table.concat({
			"package.path = " .. string.format("%q", package.path),
			"package.cpath = " .. string.format("%q", package.cpath),
			"local S = require 'support'",
			"io.write(S.pid(), '\\n') io.stdout:flush()",
			"S.run('sleep 30', { host_uid = " .. id .. ", host_gid = " .. id .. ", wall = 30 })",
		}, "\n")
		local tmp = os.tmpname()
		local fh = assert(io.open(tmp, "w"))
		fh:write(script)
		fh:close()
		local f = assert(io.popen("exec " .. S.lua .. " " .. tmp))
		local lua = f:read("l")
		local init, cmd
		for _ = 1, 1500 do -- 30 s at most, on a loaded machine
			init = (S.read("/proc/" .. lua .. "/task/" .. lua .. "/children") or ""):match("%d+")
			cmd = init and (S.read("/proc/" .. init .. "/task/" .. init .. "/children") or ""):match("%d+")
			if cmd then break end
			os.execute("sleep 0.02")
		end
		local owner = cmd and S.sh("python3 -c 'import fcntl, os, struct, sys\n"
			.. "fd = os.open(sys.argv[1], os.O_RDONLY); b = bytearray(4)\n"
			.. "fcntl.ioctl(fd, 0xb704, b); print(struct.unpack(\"I\", b)[0])' /proc/" .. cmd .. "/ns/user")
		if init then os.execute("kill -KILL " .. init) end
		f:close()
		os.remove(tmp)
		assert(cmd, "no box under " .. tostring(lua))
		assert.are.equal(tostring(id) .. "\n", owner)
	end)

	it("maps a root caller to an unprivileged host id on request", function()
		if S.euid() ~= 0 then
			assert.has_error(function()
				sbx.box(S.spec("true", { host_uid = 12345, host_gid = 12345 }))
			end, "bad argument #1 to 'box' (host_uid/host_gid other than the caller's need root)")
			return
		end
		local r = S.run("cat /proc/self/uid_map; id -G; sleep 0.2 & ps -o uid= -p $! 2>/dev/null; "
			.. "stat -c %u /proc/self", { host_uid = 65534, host_gid = 65534 })
		assert.matches("^%s*1000%s+65534%s+1\n", r.stdout)
		assert.matches("\n1000\n", r.stdout) -- no host group 0 left
	end)

	it("mounts exactly the plan, with its flags", function()
		local r = S.run("cat /proc/self/mountinfo")
		local got = {}
		for _, l in ipairs(S.matches(r.stdout, "[^\n]+")) do
			local mp, opts = l:match("^%d+ %d+ %S+ %S+ (%S+) (%S+)")
			got[#got + 1] = mp
			got[mp] = opts
		end
		-- (mountinfo lists mounts by their ids: a bind the supervisor
		-- opened for the box was made before the box's root)
		local points = { table.unpack(got) }
		table.sort(points)
		-- (/dev/mqueue: the mqueue of the box's own IPC namespace, with /dev)
		assert.are.same({ "/", "/dev", "/dev/full", "/dev/mqueue", "/dev/null", "/dev/pts", "/dev/random",
			"/dev/shm", "/dev/tty", "/dev/urandom", "/dev/zero", "/proc", "/tmp", "/usr" }, points)
		assert.matches("^ro,nosuid,nodev", got["/"])
		assert.matches("^ro,nosuid,nodev", got["/usr"])
		assert.matches("^ro,nosuid", got["/dev"])
		assert.matches("^rw,nosuid,nodev,noexec", got["/dev/shm"])
		-- the box's own devpts instance (its ptys are character devices)
		assert.matches("^rw,nosuid,noexec", got["/dev/pts"])
		assert.matches("^rw,nosuid,nodev,noexec", got["/proc"])
		assert.matches("^rw,nosuid,nodev", got["/tmp"])
		for _, n in ipairs { "null", "zero", "full", "random", "urandom", "tty" } do
			-- the host's own inodes: read-only binds (the devices still work)
			assert.matches("^ro,nosuid,noexec", got["/dev/" .. n], 1)
		end
	end)

	-- the tree keeps the last directory it walked for the next entry of
	-- it (tree.c): a mount over that directory, or over one above it,
	-- must send the entries after it into the mount, not under it
	it("makes an entry after a mount over its directory in that mount", function()
		local mounts = sbx.minimal_mounts()
		for _, m in ipairs {
			{ type = "file", dst = "/x/y/a", data = "a\n" },
			{ type = "tmpfs", dst = "/x/y" },
			{ type = "file", dst = "/x/y/b", data = "b\n" },
			{ type = "file", dst = "/x/c", data = "c\n" },
			{ type = "tmpfs", dst = "/x" },
			{ type = "file", dst = "/x/y/d", data = "d\n" },
			{ type = "file", dst = "/x/e", data = "e\n" },
		} do
			mounts[#mounts + 1] = m
		end
		local r = S.run("cd /x && find . | sort | tr '\\n' ' '; cat y/d e", { mounts = mounts })
		assert.are.equal(0, r.code, r.stderr)
		assert.are.equal(". ./e ./y ./y/d d\ne\n", r.stdout)
	end)

	it("refuses writes outside /tmp and allows them in /tmp", function()
		local r, l = run_lines("echo x > /x; echo $?; echo x > /usr/x; echo $?; "
			.. "mkdir /dev/y; echo $?; echo x > /tmp/x && cat /tmp/x")
		assert.are_not.equal("0", l[1])
		assert.are_not.equal("0", l[2])
		assert.are_not.equal("0", l[3])
		assert.are.equal("x", l[4])
		assert.matches("Read%-only file system", r.stderr)
	end)

	it("cannot read a host file outside its mounts", function()
		local d, rm = S.tmpdir()
		S.write(d .. "/secret", "hunter2\n")
		os.execute("chmod 755 " .. d .. "; chmod 644 " .. d .. "/secret")
		local r = S.run("cat " .. d .. "/secret; cat /etc/shadow; ls /root /home")
		rm()
		assert.are.equal("exit", r.outcome)
		assert.are_not.equal(0, r.code)
		assert.not_matches("hunter2", r.stdout)
		assert.matches("No such file", r.stderr)
	end)

	it("sees no host process and cannot signal one", function()
		local pid = S.sh("sleep 30 >/dev/null 2>&1 & echo $!"):match("%d+")
		local r = S.run("ls /proc | grep -c '^[0-9]'; kill -9 -1; kill -9 " .. pid .. "; echo $?")
		local alive = select(2, S.sh("kill -0 " .. pid .. " 2>/dev/null"))
		os.execute("kill " .. pid .. " 2>/dev/null")
		assert.are.equal(0, alive, "host process killed from the box")
		local l = S.matches(r.stdout, "[^\n]+")
		assert.is_true(tonumber(l[1]) <= 4, "visible pids: " .. l[1])
		assert.are_not.equal("0", l[2])
	end)

	it("never reaches a listener on the host's loopback", function()
		-- the listener takes one connection and prints what it was sent:
		-- the box runs (and tries) first, then the host itself connects
		-- and sends "host"; a box that got through would be heard first
		-- a port the kernel picks: two suites at once never share one
		local listener = assert(io.popen("/usr/bin/python3 -c '"
			.. "import socket; s = socket.socket()\n"
			.. "s.bind((\"127.0.0.1\", 0)); s.listen(); print(\"ready\", s.getsockname()[1], flush=True)\n"
			.. "c, _ = s.accept(); c.settimeout(30); print(\"heard\", c.recv(16).decode())'"))
		local port = listener:read("l"):match("^ready (%d+)$")
		assert.is_string(port)
		local r = S.run("python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", "
			.. port .. "), timeout=1)' 2>&1; true")
		os.execute("/usr/bin/python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", "
			.. port .. ")).sendall(b\"host\")'")
		local heard = listener:read("a")
		listener:close()
		assert.are.equal("heard host\n", heard)
		assert.matches("ConnectionRefusedError", r.stdout)
	end)

	it("kills every descendant with the box", function()
		local tag = ("%d.%s"):format(4000 + math.random(0, 4000), S.unique())
		local r = S.run("(setsid sleep " .. tag .. " &) ; (sleep " .. tag .. " &) ; exit 3")
		assert.are.equal("exit", r.outcome)
		assert.are.equal(3, r.code)
		local out = S.sh("pgrep -f 'slee[p] " .. tag .. "'")
		assert.are.equal("", out)
	end)

	it("kills a sleeping program at the wall clock", function()
		local r = S.run("sleep 20", { wall = 0.5 })
		assert.are.equal("wall", r.outcome)
		assert.is_true(r.elapsed < 5, "elapsed " .. r.elapsed)
	end)

	it("stops the box when output passes its cap", function()
		local r = S.run("yes", { output_limit = 1000, wall = 20 })
		assert.are.equal("output", r.outcome)
		assert.are.equal(1000, #r.stdout)
		assert.are.equal(1000, r.stdout_bytes)
	end)

	it("passes 16 MiB of stdin intact", function()
		local parts = {}
		for i = 1, 16 * 1024 do parts[i] = ("%10d"):format(i) .. ("."):rep(1013) .. "\n" end
		local data = table.concat(parts)
		assert.are.equal(16 << 20, #data)
		local r = S.run("cat", { stdin = data, output_limit = 32 << 20 })
		assert.are.equal("exit", r.outcome)
		assert.are.equal(#data, #r.stdout)
		assert.is_true(data == r.stdout)
	end)

	it("takes stdin from a file and from nothing", function()
		local d, rm = S.tmpdir()
		S.write(d .. "/in", "from a file\n")
		local file = assert(sbx.open_file(d .. "/in"))
		os.remove(d .. "/in") -- the descriptor is what the box reads
		rm()
		-- every run, and every box of one run_many, reads it from its start
		local b = assert(sbx.box(S.spec("cat", { stdin = file })))
		assert.are.equal("from a file\n", assert(b:run()).stdout)
		assert.are.equal("from a file\n", assert(b:run()).stdout)
		local rs = assert(sbx.run_many { S.spec("cat", { stdin = file }), S.spec("cat", { stdin = file }) })
		assert.are.equal("from a file\n", rs[1].stdout)
		assert.are.equal("from a file\n", rs[2].stdout)
		file:close()
		assert.has_error(function() b:run() end, "attempt to run a box whose stdin file was closed")
		b:close()
		local r = S.run("cat; echo end")
		assert.are.equal("end\n", r.stdout)
	end)

	it("holds only descriptors 0, 1 and 2 inside", function()
		local r, l = run_lines("ls /proc/$$/fd; readlink -v /proc/1/exe /proc/1/cwd /proc/1/root /proc/1/fd/*; true")
		assert.are.same({ "0", "1", "2" }, { l[1], l[2], l[3] })
		-- init is not dumpable: none of its links can be followed
		assert.is_nil(l[4], "init's links were readable: " .. r.stdout)
		assert.matches("readlink: /proc/1/exe: Permission denied", r.stderr)
		-- (as an unprivileged caller even the listing of /proc/1/fd is refused)
		assert.matches("readlink: '?/proc/1/fd/[%d*]+'?: Permission denied", r.stderr)
	end)

	it("init catches no signal: the box cannot reach it with one", function()
		-- sbxlua has a SIGINT handler while a script runs: init, a copy of
		-- it, must not keep it (pid 1 ignores only signals it does not catch)
		local out = S.sh(S.bin .. " -e " .. S.q("local sbx = require 'sbx'; local r = sbx.run { root = {}, "
			.. "mounts = sbx.minimal_mounts(), argv = { '/bin/sh', '-c', "
			.. "'grep -E ^Sig[CB] /proc/1/status; kill -INT 1; kill -TERM 1; kill -HUP 1; sleep 0.2; "
			.. "echo alive' } }; io.write(r.outcome, '\\n', r.stdout)"))
		assert.are.equal("exit\nSigBlk:\t0000000000000000\nSigCgt:\t0000000000000000\nalive\n", out)
	end)

	it("a signal the caller ignores is at its default in the box, init's and the program's", function()
		-- init resets what its status says is ignored or caught (SigIgn,
		-- SigCgt), not each of the 62 signals: a caller under `trap ''`
		local out = S.sh("sh -c " .. S.q("trap '' USR1 HUP WINCH; exec " .. S.bin .. " -e " .. S.q(
			"local sbx = require 'sbx'; local r = sbx.run { root = {}, mounts = sbx.minimal_mounts(), "
			.. "argv = { '/bin/sh', '-c', 'grep -E ^Sig[IC] /proc/1/status; grep ^SigIgn /proc/$$/status' } }; "
			.. "io.write(r.outcome, '\\n', r.stdout)")))
		assert.are.equal("exit\nSigIgn:\t0000000000000000\nSigCgt:\t0000000000000000\nSigIgn:\t0000000000000000\n", out)
		-- the caller's own were ignored (the case is real)
		assert.matches("SigIgn:\t0*[1-9a-f]", S.sh("sh -c " .. S.q("trap '' USR1 HUP WINCH; grep SigIgn /proc/self/status")))
	end)

	it("a SIGINT to sbxlua during sbx.run stops the box; the script gets `interrupted` and goes on", function()
		local n = S.unique()
		local script = "local sbx = require 'sbx'; local r = sbx.run { root = {}, "
			.. "mounts = sbx.minimal_mounts(), stdout = 'pass', wall = 60, argv = { '/bin/sh', '-c', "
			.. "'echo ready; sleep 1000; : int" .. n .. "' } }; "
			.. "io.write(r.outcome, ' ', r.signal, ' ', r.signame, '\\n'); io.write('after\\n')"
		local p = assert(io.popen(S.bin .. " -e " .. S.q(script) .. " </dev/null 2>&1 & echo pid $!; wait $!; "
			.. "echo rc=$?", "r"))
		-- the box's "ready" and the shell's pid line, in either order
		local pid, ready
		while not (pid and ready) do
			local l = assert(p:read("l"))
			if l == "ready" then ready = true else pid = assert(tonumber(l:match("^pid (%d+)$")), l) end
		end
		local function count()
			return S.sh("pgrep -f '^/bin/s[h] -c .*: int" .. n .. "$' | wc -l"):match("%d+")
		end
		assert.are.equal("1", count())
		os.execute("kill -INT " .. pid)
		local tail = p:read("a")
		p:close()
		assert.are.equal("interrupted 2 SIGINT\nafter\nrc=0\n", tail)
		assert.are.equal("0", count())
	end)

	it("gives exactly the environment it was given", function()
		local r = S.run("env | sort", { env = { B = "2", A = "1 2" } })
		assert.are.equal("A=1 2\nB=2\nPWD=/tmp\n", r.stdout)
		r = S.run("env", { env = { "ONLY=this" } })
		assert.are.equal("ONLY=this\nPWD=/tmp\n", r.stdout)
	end)

	it("relays exit codes and signals", function()
		assert.are.equal(42, S.run("exit 42").code)
		local r = S.run("kill -SEGV $$")
		assert.are.equal("signal", r.outcome)
		assert.are.equal(11, r.signal)
		assert.are.equal("SIGSEGV", r.signame)
		r = S.run("kill -9 $$")
		assert.are.equal(9, r.signal)
	end)

	it("reports a setup failure as cannot, never runs half-built", function()
		local r = assert(sbx.run { root = {}, argv = { "/nonexistent" } })
		assert.are.equal("cannot", r.outcome)
		assert.are.equal("execute", r.cannot.stage)
		assert.are.equal("ENOENT", r.cannot.errname)
		assert.are.equal("/nonexistent", r.cannot.path)
		r = assert(sbx.run(S.spec("echo ran", { mounts = { { type = "bind", src = "/usr" },
			{ type = "remount", dst = "/usr/nonexistent" } } })))
		assert.are.equal("cannot", r.outcome)
		assert.are.equal("mount", r.cannot.stage)
		assert.are.equal("/usr/nonexistent", r.cannot.path)
		assert.are.equal("", r.stdout)
	end)

	it("sets sysctls of its own user namespace, and says which one it could not", function()
		local host = S.read("/proc/sys/user/max_inotify_instances")
		assert.are_not.equal("3\n", host)
		local r = S.run("cat /proc/sys/user/max_inotify_instances /proc/sys/user/max_inotify_watches; "
			.. "echo 9 > /proc/sys/user/max_inotify_instances",
			{ sysctl = { ["user.max_inotify_instances"] = 3, ["user.max_inotify_watches"] = 77 } })
		assert.are.equal("exit", r.outcome)
		assert.are.equal("3\n77\n", r.stdout)
		-- the command holds no capability: the box cannot raise them again
		assert.are_not.equal(0, r.code)
		assert.are.equal(host, S.read("/proc/sys/user/max_inotify_instances")) -- the host's untouched
		r = assert(sbx.run(S.spec("echo ran", { sysctl = { ["user.max_nothing"] = 1 } })))
		assert.are.equal("cannot", r.outcome)
		assert.are.equal("set sysctl", r.cannot.stage)
		assert.are.equal("user.max_nothing", r.cannot.path)
		assert.are.equal("ENOENT", r.cannot.errname)
		assert.are.equal("", r.stdout)
	end)

	it("runs many boxes at once, each with its own result", function()
		local specs = {}
		for i = 1, 16 do specs[i] = S.spec("echo $0; exit " .. i, { argv = { "/bin/sh", "-c", "echo " .. i .. "; exit " .. i } }) end
		local rs = assert(sbx.run_many(specs))
		for i = 1, 16 do
			assert.are.equal("exit", rs[i].outcome)
			assert.are.equal(i, rs[i].code)
			assert.are.equal(i .. "\n", rs[i].stdout)
		end
	end)

	it("runs 64 boxes at once with the collector at every step (the boxes stay anchored)", function()
		-- in a child interpreter: a broken heap aborts it, not busted
		local code = [[
collectgarbage("incremental", 1, 1)
local sbx = require "sbx"
local specs = {}
for i = 1, 64 do specs[i] = { mounts = sbx.minimal_mounts(), argv = { "/bin/true" } } end
local n = 0
for _, r in ipairs(sbx.run_many(specs)) do if r.outcome == "exit" and r.code == 0 then n = n + 1 end end
collectgarbage()
print(n)
]]
		local out, status = S.sh(("LUA_PATH=%s LUA_CPATH=%s %s -e %s 2>&1"):format(
			S.q(package.path), S.q(package.cpath), S.bin, S.q(code)))
		assert.are.equal(0, status, out)
		assert.are.equal("64\n", out)
	end)
end)
