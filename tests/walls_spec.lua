-- SPDX-License-Identifier: MIT
-- The two walls inside the standard box: the default seccomp profile
-- answers every call of its deny-list with its errno, other ABIs kill, and
-- Landlock refuses a path the ruleset does not grant even when a mount puts
-- it in the box.  Run as root and as uid 65534 by scripts/test.sh.
local sbx = require "sbx"
local stdbox = require "sbx.stdbox"
local profile = require "sbx.profile"
local report = require "sbx.report"
local S = require "support"

local PROBE = "build/tests/sysprobe"
local PY = "/usr/bin/python3" -- the host's, whatever the caller's PATH says

-- The box's host id in the tests that run a host process as it: the
-- caller's, or for a root caller one of this run's own (a host process of
-- the standard box's id would make sbxlua refuse that id to every other
-- suite running at the same time).
-- (by this process's pid: unique among the suites running at once)
local HOST_ID = S.euid() == 0 and 0x71000000 + tonumber(S.pid()) % 0x1000000 or S.euid()

-- Starts `sbxlua run.lua args...` (with HOST_ID) and returns a handle on
-- its stdout (the box's output, passed through as it comes) and the file
-- of its stderr.
local function start(...)
	local args = {}
	if S.euid() == 0 then args[1], args[2] = "--host-id", tostring(HOST_ID) end
	for _, a in ipairs { ... } do args[#args + 1] = S.q(a) end
	local err = os.tmpname()
	local p = assert(io.popen(S.bin .. " run.lua " .. table.concat(args, " ")
		.. " 2>" .. err .. " </dev/null; echo \"rc=$?\"", "r"))
	return p, err
end

-- Releases a box blocked reading the FIFO path (the box holds it open
-- read-write, so opening it never blocks here even if the box is gone).
local function release(path)
	local f = assert(io.open(path, "r+"))
	f:write("x")
	f:close()
end

-- Runs python code on the host as the box's host id (HOST_ID); returns its
-- output.
local function host_py(code)
	local as = S.euid() == 0 and ("setpriv --reuid=%d --regid=%d --clear-groups "):format(HOST_ID, HOST_ID) or ""
	return (S.sh(as .. PY .. " -c " .. S.q(code) .. " 2>&1"))
end

-- With a box p started (stderr to errf) that says one line, then waits
-- on the FIFO go: its line, what host_code printed on the host meanwhile,
-- the rest of its output once released, and its stderr
local function meet(p, errf, go, host_code)
	local first = p:read("l")
	local host = host_py(host_code)
	release(go)
	local rest = p:read("a")
	p:close()
	local err = S.read(errf)
	os.remove(errf)
	return first, host, rest, err
end

-- the errno the default profile gives each sysprobe case
local function expected()
	local want = {}
	for _, r in ipairs(assert(profile.load("default")).rules) do
		if not r.args and type(r.action) == "table" then want[r.call] = r.action.errno end
	end
	for _, ns in ipairs { "newns", "newcgroup", "newuts", "newipc", "newuser", "newpid", "newnet",
		"newuser-high" } do
		want["clone-" .. ns] = "EPERM"
	end
	for _, ns in ipairs { "newns", "newcgroup", "newuts", "newipc", "newuser", "newpid", "newnet",
		"newtime" } do
		want["unshare-" .. ns] = "EPERM"
	end
	for _, c in ipairs { "ioctl-tiocsti", "ioctl-tiocsti-high", "ioctl-tioclinux",
		"ioctl-tioclinux-high", "seccomp-listener", "fcntl-setlease", "fcntl-setlease-high" } do
		want[c] = "EPERM"
	end
	want["clone-plain"], want.getpid = "ok", "ok"
	want["prlimit-self"], want["prlimit-pid"], want["prlimit-high"] = "ok", "EPERM", "EPERM"
	want["fcntl-getlease"] = "EBADF"
	for _, c in ipairs { "chmod", "fchmod", "fchmodat", "open-creat", "open-tmpfile", "openat-creat",
		"openat-tmpfile", "creat", "mknod", "mknodat" } do
		want[c .. "-setuid"], want[c .. "-setgid"] = "EPERM", "EPERM"
	end
	want["chmod-plain"], want["open-creat-plain"], want["open-nocreat-setuid"] = "EFAULT", "EFAULT", "EFAULT"
	want["openat-creat-plain"], want["openat-nocreat-setuid"] = "EFAULT", "EFAULT"
	want["fchmod-plain"] = "EBADF"
	return want
end

describe("walls [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	it("the default profile answers every denied call inside the box", function()
		local want = expected()
		local out, err, code = S.runlua("--ro", PROBE .. ":/work/sysprobe", "/bin/sh", "-c",
			"for c in $(./sysprobe list); do case $c in socket|seccomp-filter|unshare-plain|fchmodat2-*) continue;; esac; "
			.. "echo \"$c $(./sysprobe $c)\"; done; "
			.. "for c in setuid setgid plain; do echo \"fchmodat2-$c $(./sysprobe fchmodat2-$c "
			.. assert(require("sbx.core").syscall_number("fchmodat2")) .. ")\"; done; "
			.. "for f in 1 2 10 16 15 17 38 40 0x100000002; do echo \"socket-$f $(./sysprobe socket $f)\"; done; "
			.. "grep Seccomp: /proc/self/status")
		assert.are.equal(0, code, err)
		local got = {}
		for c, e in out:gmatch("([%w_-]+) (%S+)\n") do got[c] = e end
		local n = 0
		for c, e in pairs(want) do
			if got[c] then
				n = n + 1
				-- a call this kernel lacks answers ENOSYS before the filter matters
				if got[c] ~= e and not (got[c] == "ENOSYS" and (c == "_sysctl" or c == "nfsservctl")) then
					assert.are.equal(e, got[c], c)
				end
			end
		end
		assert.is_true(n >= 70, "only " .. n .. " cases ran")
		assert.are.equal("ENOSYS", got.clone3)
		assert.are.equal("ENOSYS", got.openat2)
		assert.are.equal("EPERM", got["fchmodat2-setuid"])
		assert.are.equal("EPERM", got["fchmodat2-setgid"])
		assert.are.equal("EFAULT", got["fchmodat2-plain"])
		for _, f in ipairs { "15", "17", "38", "40", "0x100000002" } do -- AF_KEY, AF_PACKET, AF_ALG, AF_VSOCK
			assert.are.equal("EAFNOSUPPORT", got["socket-" .. f], f)
		end
		for _, f in ipairs { "1", "2", "10", "16" } do assert.are.equal("ok", got["socket-" .. f], f) end
		assert.matches("Seccomp:%s+2\n", out)
	end)

	it("a call through another ABI kills the program, and the report says so", function()
		-- the filter's kill is a SIGSYS that nothing outside the process
		-- tells from a kill -SYS (docs/limits.md): reported as the signal
		local _, err, code = S.runlua("build/tests/x32")
		assert.are.equal(128 + 31, code)
		assert.are.equal("sandbox: killed: signal 31 (SIGSYS)\n", err)
	end)

	it("kills an int 0x80 call", function()
		local _, how, sig = os.execute("exec build/tests/int80 >/dev/null 2>&1")
		if how == "signal" and sig == 11 then
			pending("int $0x80 faults before the system call table on this kernel (32-bit "
				.. "emulation off: SIGSEGV without any filter); tests/filter_spec.lua checks the "
				.. "filter's 32-bit branch in a BPF interpreter")
			return
		end
		local _, err, code = S.runlua("build/tests/int80")
		assert.are.equal(128 + 31, code)
		assert.are.equal("sandbox: killed: signal 31 (SIGSYS)\n", err)
	end)

	it("--profile none loads no filter and the report says so", function()
		local j = os.tmpname()
		local out, err, code = S.runlua("--profile", "none", "--verbose", "--json", j,
			"/bin/sh", "-c", "grep Seccomp: /proc/self/status")
		local res = require("cjson").decode(S.read(j))
		os.remove(j)
		assert.are.equal(0, code)
		assert.matches("Seccomp:%s+0\n", out)
		assert.matches("sandbox: seccomp: none\n", err)
		assert.is_false(res.isolation.seccomp)
		assert.are.equal("none", res.verified.seccomp)
	end)

	describe("landlock", function()
		local abi = sbx.landlock_abi()

		it("names the ABI in force in the report", function()
			local _, err = S.runlua("--verbose", "/bin/true")
			if abi == 0 then
				assert.matches("sandbox: landlock: none\n", err)
			else
				assert.matches("sandbox: landlock: ABI " .. abi .. " ", err)
			end
		end)

		it("refuses a host directory bound in but not granted", function()
			if abi == 0 then
				pending("this kernel has no Landlock")
				return
			end
			local d, rm = S.tmpdir()
			S.write(d .. "/file", "reachable\n")
			-- the directory's mode lets anyone write: only Landlock stops it
			os.execute("chmod 777 " .. d .. "; chmod 644 " .. d .. "/file")
			local spec, info = assert(stdbox.build { prog = "/bin/sh",
				args = { "-c", "cat /extra/file; cat /extra_rw/file; echo new > /extra_rw/new; "
					.. "echo x > /tmp/ok && cat /tmp/ok" },
				filter = profile.compile(profile.load("default")) })
			-- a deliberately wrong tree: two mounts no Landlock rule grants,
			-- a read-only one and a writable one
			table.insert(spec.mounts, { type = "bind", src = d, dst = "/extra" })
			table.insert(spec.mounts, { type = "bind", src = d, dst = "/extra_rw", rw = true })
			spec.stdout, spec.stderr = "capture", "capture"
			local r = assert(sbx.run(spec))
			local made = io.open(d .. "/new")
			if made then made:close() end
			rm()
			assert.are.equal("exit", r.outcome)
			assert.not_matches("reachable", r.stdout)
			assert.matches("cat: /extra/file: Permission denied", r.stderr)
			assert.matches("cat: /extra_rw/file: Permission denied", r.stderr)
			assert.matches("/extra_rw/new: Permission denied", r.stderr)
			assert.is_nil(made, "the box wrote into a mount Landlock does not grant")
			assert.matches("x\n$", r.stdout)
			assert.is_true(info.landlock)
		end)

		it("writes to a read-only root fail with EROFS or EACCES", function()
			local out = S.runlua("python3", "-c",
				"import os, errno\nfor p in ['/x', '/usr/x', '/etc/x', '/dev/x']:\n"
				.. "  try:\n    open(p, 'w'); print(p, 'written')\n"
				.. "  except OSError as e:\n    print(p, errno.errorcode[e.errno])")
			for p in ("/x /usr/x /etc/x /dev/x"):gmatch("%S+") do
				assert.matches(p .. " E[RA][OC][FC][SE]S?\n", out, 1)
			end
			assert.not_matches("written", out)
		end)
	end)

	describe("the host side", function()
		it("a device node of /dev is a read-only mount: touch fails, writes still work", function()
			-- the attack: utimensat(NULL) on /dev/null needs only write
			-- permission, and the node bound in is the host's own inode
			local before = S.sh("stat -c %y /dev/null")
			local out, err, code = S.runlua("/bin/sh", "-c",
				"for n in null zero full random urandom; do touch /dev/$n 2>/dev/null; echo $n=$?; done; "
				.. "echo x > /dev/null && echo write-null; head -c 4 /dev/zero | wc -c; "
				.. "echo x > /dev/full 2>/dev/null || echo full-refuses; "
				.. "grep -c ' /dev/\\(null\\|zero\\|full\\|random\\|urandom\\) ro,' /proc/self/mountinfo")
			assert.are.equal(0, code, err)
			assert.are.equal(before, S.sh("stat -c %y /dev/null"))
			for n in ("null zero full random urandom"):gmatch("%S+") do
				assert.matches("\n?" .. n .. "=1\n", out)
			end
			assert.matches("write%-null\n4\nfull%-refuses\n5\n$", out)
		end)
	end)

	describe("set-id files", function()
		-- the attack: a box copies a program into its --rw directory and
		-- makes it set-id; any local user then runs it as the box's host id
		local function rw_dir()
			local d, rm = S.tmpdir()
			os.execute("chmod 777 " .. d)
			return d, rm
		end
		local function host_mode(path)
			return S.sh("stat -c %a " .. S.q(path)):gsub("%s+$", "")
		end

		it("the default profile refuses every way the box could make one", function()
			local d, rm = rw_dir()
			local out, err, code = S.runlua("--rw", d .. ":/work", "/bin/sh", "-c",
				"cp /bin/true a && chmod 4755 a 2>/dev/null; echo chmod=$?; chmod g+s a 2>/dev/null; echo chmod-g=$?; "
				.. "install -m 6755 /bin/true b 2>/dev/null; echo install=$?; "
				.. "python3 -c \"import os, errno, ctypes, struct\n"
				.. "def t(name, f):\n  try: f(); print(name, 'ok')\n"
				.. "  except OSError as e: print(name, errno.errorcode[e.errno])\n"
				.. "t('open', lambda: os.open('c', os.O_CREAT | os.O_WRONLY, 0o4755))\n"
				.. "t('tmpfile', lambda: os.open('.', os.O_TMPFILE | os.O_WRONLY, 0o2755))\n"
				.. "t('mknod', lambda: os.mknod('e', 0o100000 | 0o4755))\n"
				.. "fd = os.open('f', os.O_CREAT | os.O_WRONLY, 0o755)\n"
				.. "t('fchmod', lambda: os.chmod(fd, 0o4755))\n"
				.. "libc = ctypes.CDLL(None, use_errno=True)\n"
				.. "how = struct.pack('QQQ', os.O_CREAT | os.O_WRONLY, 0o4755, 0)\n"
				.. "r = libc.syscall(437, -100, b'g', how, 24)\n"
				.. "print('openat2', 'ok' if r >= 0 else errno.errorcode[ctypes.get_errno()])\"; "
				.. "ls -l | grep -c '^-..[sS]\\|^-.....[sS]'")
			local modes = {}
			for _, f in ipairs { "a", "f" } do modes[f] = host_mode(d .. "/" .. f) end
			rm()
			assert.are.equal(1, code, err) -- grep -c found no set-id file
			assert.are.equal("chmod=1\nchmod-g=1\ninstall=1\nopen EPERM\ntmpfile EPERM\nmknod EPERM\n"
				.. "fchmod EPERM\nopenat2 ENOSYS\n0\n", out)
			-- each refusal named (the explain channel, with the same errno);
			-- nothing for the scan to clear
			assert.are.equal("sandbox: denied: attribute /work/a (fchmodat) (EPERM)\n"
				.. "sandbox: denied: attribute /work/a (fchmodat) (EPERM)\n"
				.. "sandbox: denied: attribute /work/b (fchmodat) (EPERM)\n"
				.. "sandbox: denied: open /work/c (EPERM)\n"
				.. "sandbox: denied: open /work (EPERM)\n"
				.. "sandbox: denied: syscall 259 (mknodat) (EPERM)\n"
				.. "sandbox: denied: attribute /work/f (fchmod) (EPERM)\n"
				.. "sandbox: exit 1\n", err)
			assert.are.same({ a = "755", f = "755" }, modes)
		end)

		it("one made despite the filter is cleared after the run, and named", function()
			-- --profile none stands for any way past the filter
			local d, rm = rw_dir()
			local out, err, code = S.runlua("--profile", "none", "--rw", d .. ":/work", "/bin/sh", "-c",
				"cp /bin/true su && chmod 4755 su && mkdir -p lib/x && cp /bin/true lib/x/sg && "
				.. "chmod 2755 lib/x/sg && ln -s /usr/bin/su link && mkfifo fifo && chmod 4755 fifo && "
				.. "cp /bin/true \"$(printf 'a\nsandbox: exit 0')\" && chmod 6755 a* && "
				.. "ls -l | grep -c '^-..s'")
			local modes = {}
			for _, f in ipairs { "su", "lib/x/sg", "a\nsandbox: exit 0", "fifo" } do
				modes[#modes + 1] = host_mode(d .. "/" .. f)
			end
			rm()
			assert.are.equal(0, code, err)
			assert.are.equal("2\n", out) -- set-id inside, while the box ran
			assert.are.equal("sandbox: exit 0\n"
				.. "sandbox: cleared set-id bits: /work/a\\nsandbox: exit 0\n"
				.. "sandbox: cleared set-id bits: /work/lib/x/sg\n"
				.. "sandbox: cleared set-id bits: /work/su\n", err)
			assert.are.same({ "755", "755", "755", "4755" }, modes) -- a FIFO cannot run
			assert.are.equal("4755", host_mode("/usr/bin/su")) -- the link was not followed
		end)
	end)

	describe("leases", function()
		-- the box takes a read lease on an --ro file it owns, says so, and
		-- holds it until released; meanwhile the host opens the file for
		-- writing without blocking (O_NONBLOCK: EAGAIN while a lease holds)
		local function attack(prof)
			local d, rm = S.tmpdir()
			os.execute("mkdir " .. d .. "/sync && chmod 777 " .. d .. "/sync && mkfifo -m 666 "
				.. d .. "/sync/go && echo data > " .. d .. "/f && chmod 755 " .. d
				.. " && chmod 644 " .. d .. "/f")
			if S.euid() == 0 then os.execute(("chown %d:%d "):format(HOST_ID, HOST_ID) .. d .. "/f") end
			local p, errf = start("--profile", prof, "--ro", d .. "/f:/data/f", "--rw", d .. "/sync:/sync",
				"python3", "-c", "import os, fcntl, errno\n"
				.. "go = os.open('/sync/go', os.O_RDWR)\n"
				.. "fd = os.open('/data/f', os.O_RDONLY)\n"
				.. "try:\n  fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_RDLCK); r = 'ok'\n"
				.. "except OSError as e:\n  r = errno.errorcode[e.errno]\n"
				.. "print('lease', r, flush=True)\nos.read(go, 1)\nprint('done')")
			local lease, host, rest, err = meet(p, errf, d .. "/sync/go", "import os, errno\ntry:\n"
				.. "  os.close(os.open(" .. ("%q"):format(d .. "/f") .. ", os.O_WRONLY | os.O_NONBLOCK)); print('open ok')\n"
				.. "except OSError as e:\n  print('open', errno.errorcode[e.errno])")
			rm()
			return lease, host, rest, err
		end

		it("a box's lease on an --ro file stalls no host writer", function()
			local lease, host, rest, err = attack("default")
			assert.are.equal("lease EPERM", lease, err)
			assert.are.equal("open ok\n", host)
			assert.are.equal("done\nrc=0\n", rest, err)
		end)

		it("(control: without the filter the lease holds the host writer off)", function()
			local lease, host, _, err = attack("none")
			assert.are.equal("lease ok", lease, err)
			-- (the lease break then sends the holder SIGIO, which ends it)
			assert.are.equal("open EAGAIN\n", host)
		end)
	end)

	it("io_setup cannot take the host-wide AIO quota (fs.aio-max-nr)", function()
		-- the box asks for contexts until refused (64 of 4096 events would
		-- take all of a default 65536), holds them, and says what it got;
		-- meanwhile a host process of the same host id makes its own
		local d, rm = S.tmpdir()
		os.execute("chmod 777 " .. d .. " && mkfifo -m 666 " .. d .. "/go")
		local aio = "import ctypes, errno, os\nlibc = ctypes.CDLL(None, use_errno=True)\n"
			.. "def setup(n):\n  ctx = ctypes.c_ulong(0)\n"
			.. "  r = libc.syscall(206, n, ctypes.byref(ctx))\n"
			.. "  return ctx.value if r == 0 else errno.errorcode[ctypes.get_errno()]\n"
		local p, errf = start("--rw", d .. ":/sync", "python3", "-c", aio
			.. "go = os.open('/sync/go', os.O_RDWR)\ngot = [setup(4096) for i in range(64)]\n"
			.. "print(sum(1 for g in got if isinstance(g, int)), sorted(set(g for g in got if isinstance(g, str))), flush=True)\n"
			.. "os.read(go, 1)")
		local box = p:read("l")
		local host = host_py(aio .. "c = setup(1)\nprint('host', 'ok' if isinstance(c, int) else c)\n"
			.. "isinstance(c, int) and libc.syscall(207, ctypes.c_ulong(c))")
		release(d .. "/go")
		local rest = p:read("a")
		p:close()
		local err = S.read(errf)
		os.remove(errf)
		rm()
		assert.are.equal("0 ['ENOSYS']", box, err)
		assert.are.equal("host ok\n", host)
		assert.are.equal("rc=0\n", rest, err)
	end)

	-- Runs python code in the standard box that takes as much of a per-user
	-- resource as it can, prints what it got and holds it until released;
	-- meanwhile runs host_code on the host as the box's host id.  Returns
	-- the box's line, the host's output, and the box's end.
	-- With no_landlock, the standard box is built without Landlock (as an
	-- operator's script may) by a separate sbxlua.
	local function hold(box_code, host_code, no_landlock)
		local d, rm = S.tmpdir()
		os.execute("chmod 777 " .. d .. " && mkfifo -m 666 " .. d .. "/go")
		local py = "import os\ngo = os.open('/sync/go', os.O_RDWR)\n" .. box_code .. "os.read(go, 1)\n"
		local p, errf
		if no_landlock then
			errf = os.tmpname()
			p = assert(io.popen(S.bin .. " -e " .. S.q(([[
				local sbx, stdbox, profile = require "sbx", require "sbx.stdbox", require "sbx.profile"
				local spec = assert(stdbox.build { prog = "python3", args = { "-c", %q },
					rw = { { src = %q, dst = "/sync" } }, landlock = false,
					filter = assert(profile.compile(assert(profile.load("default")))) })
				local r = assert(sbx.run(spec))
				io.stderr:write(r.outcome, " ", tostring(r.code), "\n")
				os.exit(r.code or 1)
			]]):format(py, d)) .. " 2>" .. errf .. " </dev/null; echo \"rc=$?\"", "r"))
		else
			p, errf = start("--rw", d .. ":/sync", "python3", "-c", py)
		end
		local box, host, rest, err = meet(p, errf, d .. "/go", host_code)
		rm()
		return box, host, rest, err
	end

	-- hold(...) must give the box's line box_want and the host's host_want,
	-- and the box must end well
	local function expect_hold(box_want, host_want, ...)
		local box, host, rest, err = hold(...)
		assert.are.equal(box_want, box, err)
		assert.are.equal(host_want, host)
		assert.are.equal("rc=0\n", rest, err)
	end

	it("inotify: the box holds its maximum of instances, the host id still makes one", function()
		-- the kernel counts inotify instances per user in each user
		-- namespace up the chain; the box's own namespace is held to 8
		expect_hold("8 EMFILE 8", "host ok\n", "import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\n"
			.. "fds = []\nwhile len(fds) < 200:\n  fd = libc.inotify_init1(0)\n"
			.. "  if fd < 0: break\n  fds.append(fd)\n"
			.. "import errno\nmax = open('/proc/sys/user/max_inotify_instances').read().strip()\n"
			.. "print(len(fds), errno.errorcode[ctypes.get_errno()], max, flush=True)\n",
			"import ctypes, errno, os\nlibc = ctypes.CDLL(None, use_errno=True)\nfd = libc.inotify_init1(0)\n"
			.. "print('host', 'ok' if fd >= 0 else errno.errorcode[ctypes.get_errno()])")
	end)

	it("pending signals: the box queues its limit, the host id still queues one", function()
		-- real-time signals sent with tgkill queue one entry each, counted
		-- per user in each user namespace up the chain (RLIMIT_SIGPENDING)
		local sig = "import signal, errno, threading\nsignal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGRTMIN])\n"
			.. "def queue(limit):\n  n = 0\n  while n < limit:\n"
			.. "    try: signal.pthread_kill(threading.get_ident(), signal.SIGRTMIN)\n"
			.. "    except OSError as e: return n, errno.errorcode[e.errno]\n    n += 1\n  return n, 'none'\n"
		expect_hold("1024 EAGAIN", "host 1 none\n", sig .. "print(*queue(200000), flush=True)\n",
			sig .. "print('host', *queue(1))")
	end)

	it("message queues: the box fills its limit, the host id still makes a queue", function()
		-- each queue of 10 messages of 8 KiB charges about 81 KiB to its
		-- user in each user namespace up the chain (RLIMIT_MSGQUEUE).  The
		-- standard box's queues are its own (/dev/mqueue of its IPC
		-- namespace, which Landlock lets it open); the limit holds with
		-- Landlock and without it.
		local mq = "import ctypes, errno, os\nlibc = ctypes.CDLL(None, use_errno=True)\n"
			.. "class Attr(ctypes.Structure):\n  _fields_ = [('f', ctypes.c_long * 8)]\n"
			.. "a = Attr()\na.f[1], a.f[2] = 10, 8192\n"
			.. "def make(name):\n  return libc.mq_open(name, os.O_CREAT | os.O_RDWR, 0o600, ctypes.byref(a))\n"
		local fill = mq .. "n = 0\nwhile n < 64 and make(b'/sbx%d' % n) >= 0: n += 1\n"
			.. "print(n, errno.errorcode[ctypes.get_errno()], flush=True)\n"
		local host_mq = mq .. "name = b'/sbxlua-test-%d' % os.getpid()\nfd = make(name)\n"
			.. "print('host', 'ok' if fd >= 0 else errno.errorcode[ctypes.get_errno()])\nlibc.mq_unlink(name)"
		expect_hold("3 EMFILE", "host ok\n", fill, host_mq)
		expect_hold("3 EMFILE", "host ok\n", fill, host_mq, true)
	end)

	describe("the box's init, from the command", function()
		local REACH = "build/tests/reachinit"
		local function reach(...)
			local out, err, code = S.runlua(...)
			assert.are.equal(0, code, err)
			local t = {}
			for name, answer in out:gmatch("(%S+) (%S+)\n") do t[name] = answer end
			return t
		end

		it("cannot act on init: limits, signals, tracing, memory, descriptors, /proc/1", function()
			local t = reach(REACH)
			for _, k in ipairs { "prlimit-get", "prlimit-set", "prlimit-own-pid", "kill-0", "kill-stop",
				"kill-kill", "ptrace-attach", "ptrace-seize", "process_vm_readv", "process_vm_writev",
				"pidfd_getfd", "pidfd_send_signal" } do
				assert.are.equal("EPERM", t[k], k)
			end
			for _, k in ipairs { "proc-environ", "proc-mem", "proc-maps", "proc-auxv", "proc-exe",
				"proc-cwd", "proc-root", "proc-fd-0" } do
				assert.are.equal("EACCES", t[k], k)
			end
			-- what is left works: the program's own limits, init alive
			assert.are.equal("ok", t["prlimit-self"])
			assert.are.equal("ok", t.alive)
		end)

		-- The command's process shares init's memory until its execve
		-- (child.c shares_memory), and the dumpable flag is the memory's:
		-- init must come out of it closed.  Without Landlock (which alone
		-- keeps the command off init) as an operator's script may build
		-- the box; in the jail and in the analysis box, whose unprivileged
		-- command turns itself dumpable for the supervisor.
		it("init stays closed without Landlock, in the jail and the analysis box", function()
			for _, analysis in ipairs { false, true } do
				local script = ([[
					local sbx, stdbox, pipeline = require "sbx", require "sbx.stdbox", require "sbx.pipeline"
					local o = { prog = %q, landlock = false }
					if %s then stdbox.analysis(o) end
					local r = assert(sbx.run(assert(pipeline.build(pipeline.freeze(o)))))
					os.exit(r.code or 1)
				]]):format(REACH, tostring(analysis))
				local out, err, code = S.sh_err(S.bin .. " -e " .. S.q(script))
				assert.are.equal(0, code, err)
				local t = {}
				for name, answer in out:gmatch("(%S+) (%S+)\n") do t[name] = answer end
				for _, k in ipairs { "ptrace-attach", "ptrace-seize", "process_vm_readv", "pidfd_getfd" } do
					assert.are.equal("EPERM", t[k], k)
				end
				for _, k in ipairs { "proc-environ", "proc-mem", "proc-maps", "proc-exe", "proc-fd-0" } do
					assert.are.equal("EACCES", t[k], k)
				end
				assert.are.equal("ok", t.alive)
			end
		end)

		it("(control: without the filter the kernel lets prlimit64 reach init)", function()
			local t = reach("--profile", "none", REACH)
			assert.are.equal("ok", t["prlimit-get"])
			assert.are.equal("EPERM", t["kill-kill"])
			assert.are.equal("EPERM", t["ptrace-attach"])
		end)

		it("glibc's calls and the shell's ulimit use pid 0 and work; prlimit --pid fails", function()
			local out, err, code = S.runlua("/bin/sh", "-c", "ulimit -n 100 && ulimit -n; "
				.. "prlimit --nofile --noheadings -o SOFT; prlimit --pid $$ --nofile 2>&1 >/dev/null; echo rc=$?")
			assert.are.equal(0, code, err)
			assert.matches("^100\n +100\nprlimit: failed to get the NOFILE resource limit: "
				.. "Operation not permitted\nrc=1\n$", out)
		end)

		it("nothing of the caller's limits reaches the box or init", function()
			if S.asan then
				-- the instrumented sbxlua reserves terabytes of shadow
				-- memory at start: it cannot start under --as at all
				return pending("an ASan build cannot start under the caller's address-space limit")
			end
			local want = table.concat({ "Max stack size 8388608 536870912",
				"Max resident set unlimited unlimited", "Max locked memory 8388608 8388608",
				"Max address space unlimited unlimited", "Max file locks unlimited unlimited",
				"Max nice priority 0 0", "Max realtime priority 0 0",
				"Max realtime timeout unlimited unlimited" }, "\n")
			local script = "for f in /proc/self/limits /proc/1/limits; do "
				.. "grep -E 'stack|resident|locked|address|locks|nice|realtime' $f "
				.. "| sed -E 's/ +(bytes|locks|us)? *$//; s/  +/ /g'; done"
			local out, code = S.sh("prlimit --stack=1000000: --memlock=12345: --as=999999999: "
				.. "--rss=4242: --rttime=55: --nofile=300: " .. S.bin .. " run.lua /bin/sh -c "
				.. S.q(script) .. " 2>&1")
			assert.are.equal(0, code, out)
			assert.are.equal(want .. "\n" .. want .. "\nsandbox: exit 0\n", out)
			-- a hard limit below the standard one cannot be raised in a
			-- user namespace: the box gets the caller's
			out, code = S.sh("prlimit --locks=77:77 " .. S.bin .. " run.lua /bin/sh -c "
				.. S.q("grep locks /proc/self/limits") .. " 2>&1")
			assert.are.equal(0, code, out)
			assert.matches("^Max file locks +77 +77 +locks *\nsandbox: exit 0\n$", out)
		end)
	end)

	it("report vocabulary for a SIGSYS: the signal, never a guessed refusal", function()
		local ev = report.events({ outcome = "signal", signal = 31, signame = "SIGSYS" }, { limits = {} })
		assert.are.equal("killed: signal 31 (SIGSYS)", report.line(ev[1]))
		assert.are.equal(128 + 31, report.exit_code(ev))
	end)
end)
