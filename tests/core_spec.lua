-- SPDX-License-Identifier: MIT
-- Every Lua-facing function of sbx.core, given bad input: a clear raise
-- naming the problem, or nil, msg, errno for an operating-system failure.
-- Never a crash.
local core = require "sbx.core"
local S = require "support"

local T = "/bin/true"

local function box_err(spec, pattern)
	local ok, msg = pcall(core.box, spec)
	assert.is_false(ok, "accepted: " .. pattern)
	assert.matches("^bad argument #1 to '[%w.]*box' %(", msg)
	assert.matches(pattern, msg, 1, true)
end

local function with(extra)
	local spec = { argv = { T } }
	for k, v in pairs(extra) do spec[k] = v end
	return spec
end

describe("sbx.core bad input [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	it("box: spec type, unknown keys and the command", function()
		assert.has_error(function() core.box() end,
			"bad argument #1 to 'box' (table expected, got no value)")
		assert.has_error(function() core.box("x") end)
		box_err(with { readonly = true }, "unknown key 'readonly'")
		box_err({ [1] = "x", argv = { T } }, "unexpected non-string key")
		box_err({}, "field 'argv' must be a list of strings")
		box_err({ argv = {} }, "field 'argv' must hold 1 to 2147483647 strings")
		box_err({ argv = "x" }, "field 'argv' must be a list of strings")
		box_err({ argv = { 1 } }, "argv[1] must be a string")
		box_err({ argv = { "true" } }, "argv[1] must be an absolute path")
		box_err({ argv = { "/bin/tr\0ue" } }, "argv[1] contains a NUL byte")
		box_err(with { path = "bin/true" }, "field 'path' must be an absolute path")
		box_err(with { cwd = "tmp" }, "field 'cwd' must be an absolute path")
		box_err(with { cwd = "/tmp/../etc" }, "must not contain '.' or '..'")
	end)

	it("box: ids, names and namespaces", function()
		box_err(with { uid = -1 }, "field 'uid' out of range")
		box_err(with { gid = "x" }, "field 'gid' must be an integer")
		box_err(with { uid = 1.5 }, "field 'uid' must be an integer")
		box_err(with { namespaces = { "bogus" } }, "unknown namespace 'bogus'")
		box_err(with { namespaces = { "user", "user" } }, "namespace 'user' given twice")
		box_err(with { namespaces = "user" }, "table expected")
		box_err(with { hostname = ("x"):rep(65) }, "field 'hostname' must be 1 to 64 bytes")
		box_err(with { hostname = 5 }, "field 'hostname' must be a string")
		box_err(with { namespaces = { "user" }, hostname = "h" }, "hostname needs the uts namespace")
		box_err(with { namespaces = { "user" }, root = {} }, "a root needs the mount namespace")
		box_err(with { namespaces = { "user" }, net_lo = true }, "net_lo needs the net namespace")
		box_err(with { namespaces = { "mount" }, uid = 0 }, "uid/gid need the user namespace")
		if S.euid() ~= 0 then
			box_err(with { host_uid = 0 }, "need root")
		end
	end)

	it("box: the tree", function()
		box_err(with { mounts = {} }, "mounts need a root")
		box_err(with { root = 1 }, "field 'root' must be a table")
		box_err(with { root = { sizes = 1 } }, "unknown key 'sizes'")
		box_err(with { root = { size = -1 } }, "field 'size' out of range")
		local function m(entry) return with { root = {}, mounts = { entry } } end
		box_err(m("x"), "mounts[1] must be a table")
		box_err(m { dst = "/x" }, "mounts[1].type must be a string")
		box_err(m { type = "nfs", dst = "/x" }, "unknown type 'nfs'")
		box_err(m { type = "tmpfs" }, "mounts[1].dst must be a string")
		box_err(m { type = "tmpfs", dst = "x" }, "mounts[1].dst must be an absolute path")
		box_err(m { type = "tmpfs", dst = "/a/../b" }, "must not contain")
		box_err(m { type = "tmpfs", dst = "/x", size = -5 }, "field 'size' out of range")
		box_err(m { type = "tmpfs", dst = "/x", mode = 8 ^ 5 }, "field 'mode'")
		box_err(m { type = "tmpfs", dst = "/x", readonly = true }, "unknown key 'readonly'")
		box_err(m { type = "bind" }, "mounts[1].src must be a string")
		box_err(m { type = "bind", src = "/usr", rw = "yes" }, "field 'rw' must be a boolean")
		box_err(m { type = "bind", src = "/usr", ro = true }, "unknown key 'ro'")
		box_err(m { type = "symlink", dst = "/x" }, "mounts[1].target must be a string")
		box_err(m { type = "file", dst = "/x" }, "mounts[1].data must be a string")
		box_err(m { type = "file", dst = "/x", data = ("x"):rep((1 << 20) + 1) }, "over 1 MiB")
		box_err(m { type = "dev", dst = "/dev", shm_size = 0 }, "field 'shm_size' out of range")
		local ok, msg, err = core.box(m { type = "bind", src = "/nonexistent/dir" })
		assert.is_nil(ok)
		assert.are.equal("mount source /nonexistent/dir: No such file or directory", msg)
		assert.are.equal(core.errno.ENOENT, err)
		assert.is_truthy(core.box(m { type = "bind", src = "/nonexistent/dir", optional = true }))
	end)

	it("box: limits, io and walls", function()
		box_err(with { rlimits = { nofile = -1 } }, "rlimit 'nofile' must be a non-negative integer")
		box_err(with { rlimits = { bogus = 1 } }, "unknown rlimit 'bogus'")
		box_err(with { rlimits = { cpu = { 2, 1 } } }, "soft above hard")
		box_err(with { rlimits = { 5 } }, "rlimits: keys must be names")
		box_err(with { sysctl = 5 }, "field 'sysctl' must be a table")
		box_err(with { sysctl = { 5 } }, "sysctl: keys must be names")
		box_err(with { sysctl = { ["kernel.pid_max"] = 5 } },
			"sysctl 'kernel.pid_max': only user.NAME (a limit of the box's own user namespace) or a SysV IPC "
			.. "limit (kernel.shmmax, shmall, shmmni, msgmax, msgmnb, msgmni) can be set")
		box_err(with { sysctl = { ["kernel.shmmni"] = 1 << 15 | 1 } }, "sysctl 'kernel.shmmni' must be an integer 0..32768")
		box_err(with { sysctl = { ["kernel.shmmax"] = -1 } }, "sysctl 'kernel.shmmax' must be an integer 0..4611686018427387904")
		assert.is_truthy(core.box(with { namespaces = { "user", "mount", "pid", "ipc" },
			sysctl = { ["kernel.shmmax"] = 1 << 40, ["kernel.msgmni"] = 4 } }))
		box_err(with { namespaces = { "user", "mount", "pid" }, sysctl = { ["kernel.shmall"] = 1 } },
			"sysctl kernel.shm*, kernel.msg* need the ipc namespace")
		box_err(with { sysctl = { ["user.../x"] = 5 } }, "sysctl 'user.../x': only user.NAME")
		box_err(with { sysctl = { ["user."] = 5 } }, "sysctl 'user.': only user.NAME")
		box_err(with { sysctl = { ["user." .. ("x"):rep(41)] = 5 } }, "only user.NAME")
		box_err(with { sysctl = { ["user.max_inotify_instances"] = -1 } },
			"sysctl 'user.max_inotify_instances' must be an integer 0..2147483647")
		box_err(with { sysctl = { ["user.max_inotify_instances"] = 1 << 31 } }, "must be an integer")
		box_err(with { sysctl = { ["user.max_inotify_instances"] = "8" } }, "must be an integer")
		box_err(with { sysctl = { ["user.max_inotify_instances"] = 1.5 } }, "must be an integer")
		do
			local many = {}
			for i = 1, 17 do many["user.x" .. i] = 1 end
			box_err(with { sysctl = many }, "too many sysctls (at most 16)")
		end
		box_err(with { namespaces = { "user", "mount" }, sysctl = { ["user.max_inotify_instances"] = 1 } },
			"sysctl needs the user, mount and pid namespaces")
		assert.is_truthy(core.box(with { namespaces = { "user" }, sysctl = {} }))
		box_err(with { env = { 1 } }, "env entries must be strings")
		box_err(with { env = { "NOEQUALS" } }, "env entry 'NOEQUALS' is not K=V")
		box_err(with { env = { ["A=B"] = "x" } }, "env name 'A=B' is not valid")
		box_err(with { env = { A = 1 } }, "env must map names to strings")
		box_err(with { wall = -1 }, "field 'wall' must be a number")
		box_err(with { wall = "10" }, "field 'wall' must be a number")
		box_err(with { output_limit = 0 }, "field 'output_limit' out of range")
		box_err(with { stdout = "file" }, "field 'stdout' must be 'capture', 'pass', 'discard' or 'stderr'")
		box_err(with { stdin = 5 }, "field 'stdin' must be a string")
		box_err(with { stdin_file = "/etc/hostname" }, "unknown key 'stdin_file'")
		box_err(with { stdin = {} }, "field 'stdin' must be a string or an sbx.file")
		box_err(with { stdin = io.stdin }, "field 'stdin' must be a string or an sbx.file")
		do
			local f = assert(core.open_file("/etc/hostname"))
			f:close()
			box_err(with { stdin = f }, "field 'stdin' is a closed file")
			f = assert(core.open_file("/etc/hostname"))
			box_err(with { stdin = f, pty = true }, "a pty relays the caller's stdin: no 'stdin' with it")
			f:close()
		end
		box_err(with { filter = {} }, "filter")
		box_err(with { landlock = { rules = { { path = "rel", access = "ro" } } } },
			"landlock rule path must be an absolute path")
		box_err(with { landlock = { rules = { { path = "/usr", access = "wx" } } } },
			"access must be 'ro', 'rw' or a list of rights")
		box_err(with { landlock = { rules = { { path = "/usr", access = { "fly" } } } } },
			"unknown right 'fly'")
		box_err(with { landlock = { rules = {}, strict = true } }, "unknown key 'strict'")
		box_err(with { landlock = { } }, "landlock.rules must be a list")
		box_err(with { landlock = { rules = {}, ports = { { port = 70000 } } } }, "field 'port' out of range")
	end)

	it("box methods and run_many", function()
		local b = assert(core.box(with {}))
		assert.matches("^sbx.box %(/bin/true", tostring(b))
		b:close()
		b:close() -- idempotent
		assert.are.equal("sbx.box (closed)", tostring(b))
		assert.has_error(function() b:run() end, "attempt to use a closed box")
		assert.has_error(function() core.box(with {}).run({}) end)
		assert.has_error(function() core.run_many() end)
		assert.has_error(function() core.run_many({}) end,
			"bad argument #1 to 'run_many' (between 1 and 64 boxes)")
		assert.has_error(function() core.run_many({ 1 }) end)
		do
			local c <close> = assert(core.box(with {}))
			assert.matches("sbx.box", tostring(c))
		end
	end)

	it("host path queries, digests and ids", function()
		assert.has_error(function() core.lstat() end, "bad argument #1 to 'lstat' (string expected, got no value)")
		assert.has_error(function() core.realpath({}) end)
		assert.has_error(function() core.access("/", "q") end,
			"bad argument #2 to 'access' (mode must use r, w and x)")
		assert.has_error(function() core.access("/") end)
		assert.has_error(function() core.sha256() end)
		assert.has_error(function() core.isatty(-1) end, "bad argument #1 to 'isatty' (invalid descriptor)")
		assert.has_error(function() core.isatty("x") end)
		local ok, msg, err = core.lstat("/nonexistent/x")
		assert.is_nil(ok)
		assert.are.equal("lstat /nonexistent/x: No such file or directory", msg)
		assert.are.equal(core.errno.ENOENT, err)
		ok, msg, err = core.realpath("/nonexistent/x")
		assert.is_nil(ok)
		assert.are.equal("realpath /nonexistent/x: No such file or directory", msg)
		assert.are.equal(core.errno.ENOENT, err)
		ok, msg, err = core.access("/proc/self/status", "x")
		assert.is_nil(ok)
		assert.matches("^access /proc/self/status: ", msg)
		assert.are.equal(core.errno.EACCES, err)
		assert.are.equal("link", core.lstat("/proc/self").type)
		assert.is_true(core.access("/bin/sh", "x"))
		assert.are.equal("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", core.sha256("abc"))
		assert.are.equal(64, #core.sha256(("\0"):rep(1000)))
		local ids = core.ids()
		assert.are.equal(S.euid(), ids.euid)
		-- a pseudo-terminal's master is a terminal, a regular file is not
		local function fd_of(path)
			for fd, target in pairs(core.fds()) do
				if target == path then return fd end
			end
		end
		local name = os.tmpname()
		local pt, reg = assert(io.open("/dev/ptmx", "r+")), assert(io.open(name, "w"))
		local tty, file = core.isatty(fd_of("/dev/ptmx")), core.isatty(fd_of(name))
		pt:close()
		reg:close()
		os.remove(name)
		assert.is_true(tty)
		assert.is_false(file)
	end)

	it("uid_users: processes of this namespace holding an id", function()
		assert.has_error(function() core.uid_users() end)
		assert.has_error(function() core.uid_users("x") end)
		assert.has_error(function() core.uid_users(-1) end, "bad argument #1 to 'uid_users' (invalid uid)")
		assert.has_error(function() core.uid_users(0xffffffff) end, "bad argument #1 to 'uid_users' (invalid uid)")
		local count_msg = "bad argument #2 to 'uid_users' (a count of ids from 1 to 2^32 - 1 - uid expected)"
		assert.has_error(function() core.uid_users(5, 0) end, count_msg)
		assert.has_error(function() core.uid_users(5, -1) end, count_msg)
		assert.has_error(function() core.uid_users(0xfffffffe, 2) end, count_msg)
		assert.has_error(function() core.uid_users(5, 1.5) end)
		assert.has_error(function() core.uid_users(5, "x") end)
		assert.is_true(core.uid_users(S.euid()) >= (S.euid() == 0 and 0 or 1))
		assert.are.equal(0, core.uid_users(0x73800000 + tonumber(S.pid()) % 0x800000))
	end)

	it("uid_users: a host process holding the id counts, a box's process does not", function()
		if S.euid() ~= 0 then
			pending("only a root caller can start a process as another id")
			return
		end
		local id = 0x73000000 + tonumber(S.pid()) % 0x800000 -- this suite's own
		local d, remove = S.tmpdir()
		S.sh("mkfifo -m 666 " .. S.q(d .. "/ready") .. " && chmod 777 " .. S.q(d))
		-- a host process as id: it opens the FIFO once it runs as id
		local p = assert(io.popen(("setpriv --reuid=%d --regid=%d --clear-groups sh -c "
			.. "'echo > %s/ready; exec cat >/dev/null'"):format(id, id, d), "w"))
		local f = assert(io.open(d .. "/ready"))
		f:read("a")
		f:close()
		assert.are.equal(1, core.uid_users(id))
		-- in a range of ids: from below, to just before it, from it on
		assert.are.equal(1, core.uid_users(id - 5, 6))
		assert.are.equal(0, core.uid_users(id - 5, 5))
		assert.are.equal(1, core.uid_users(id, 65536))
		assert.are.equal(0, core.uid_users(id + 1, 65536))
		p:close()
		assert.are.equal(0, core.uid_users(id))
		-- a box whose host id is id: its processes are in a user
		-- namespace of their own
		p = assert(io.popen(("%s run.lua --host-id %d --rw %s:/sync --stdin - /bin/sh -c "
			.. "'echo > /sync/ready; exec cat >/dev/null' 2>/dev/null"):format(S.bin, id, d), "w"))
		f = assert(io.open(d .. "/ready"))
		f:read("a")
		f:close()
		assert.are.equal(0, core.uid_users(id))
		p:close()
		-- a container's process: the host's user namespace, a pid
		-- namespace of its own (what podman runs for a root caller)
		p = assert(io.popen(("unshare --pid --fork setpriv --reuid=%d --regid=%d --clear-groups sh -c "
			.. "'echo > %s/ready; exec cat >/dev/null'"):format(id, id, d), "w"))
		f = assert(io.open(d .. "/ready"))
		f:read("a")
		f:close()
		assert.are.equal(0, core.uid_users(id))
		p:close()
		remove()
	end)

	it("fds: every descriptor held, exactly, and nothing of its own", function()
		local before = core.fds()
		local f = assert(io.open("/dev/zero"))
		local during = core.fds()
		f:close()
		local added = {}
		for fd, t in pairs(during) do
			if before[fd] ~= t then added[#added + 1] = t end
		end
		assert.are.same({ "/dev/zero" }, added)
		assert.are.same(before, core.fds())
		-- more descriptors than the listing's first buffer holds
		local many = {}
		for i = 1, 600 do many[i] = assert(io.open("/dev/null")) end
		local n = 0
		for _ in pairs(core.fds()) do n = n + 1 end
		for _, g in ipairs(many) do g:close() end
		local m = 0
		for _ in pairs(before) do m = m + 1 end
		assert.are.equal(m + 600, n)
	end)

	it("input files: open_file and stdin", function()
		assert.has_error(function() core.open_file() end,
			"bad argument #1 to 'open_file' (string expected, got no value)")
		assert.has_error(function() core.open_file("/etc/hostname\0x") end,
			"bad argument #1 to 'open_file' (path contains a NUL byte)")
		local function refused(path, msg, errno)
			local ok, m, e = core.open_file(path)
			assert.is_nil(ok, path)
			assert.are.equal(msg, m)
			assert.are.equal(errno, e)
		end
		local d, rm = S.tmpdir()
		os.execute("echo hi > " .. d .. "/f; ln -s f " .. d .. "/link; mkfifo " .. d .. "/fifo; "
			.. "mkdir " .. d .. "/sub; ln -s sub " .. d .. "/dlink; echo x > " .. d .. "/sub/g")
		refused("/nonexistent/f", "open /nonexistent/f: No such file or directory", core.errno.ENOENT)
		refused(d .. "/link", "open " .. d .. "/link: a symbolic link on the path (never followed)", core.errno.ELOOP)
		refused(d .. "/dlink/g", "open " .. d .. "/dlink/g: a symbolic link on the path (never followed)",
			core.errno.ELOOP)
		refused(d .. "/fifo", "open " .. d .. "/fifo: is a FIFO, not a regular file", core.errno.EINVAL)
		refused(d .. "/sub", "open " .. d .. "/sub: is a directory, not a regular file", core.errno.EISDIR)
		refused("/dev/null", "open /dev/null: is a character device, not a regular file", core.errno.EINVAL)
		local f = assert(core.open_file(d .. "/f"))
		assert.are.equal("sbx.file (" .. d .. "/f)", tostring(f))
		-- the open file, whatever becomes of its name
		os.execute("rm " .. d .. "/f; echo other > " .. d .. "/f")
		local st = assert(f:stat())
		assert.are.equal("file", st.type)
		assert.are.equal(3, st.size)
		assert.are.equal(S.euid(), st.uid)
		assert.are.equal("hi\n", f:read())
		assert.are.equal("hi\n", f:read(3))
		assert.are.equal("hi\n", f:read()) -- from the start each time
		local ok, msg, err = f:read(2)
		assert.is_nil(ok)
		assert.are.equal("read " .. d .. "/f: File too large", msg)
		assert.are.equal(core.errno.EFBIG, err)
		assert.has_error(function() f:read(-1) end, "bad argument #1 to 'read' (size out of range)")
		assert.has_error(function() f:read("x") end)
		assert.has_error(function() f.read({}) end)
		-- whole files around the read's steps (its size plus one, then
		-- 1 KiB) and the heap's 64 KiB; one that grows while open
		for _, n in ipairs { 1, 1023, 1024, 1025, 65535, 65536, 70000, 300000 } do
			local data = ("0123456789abcdef"):rep(n // 16 + 1):sub(1, n - 1) .. "\n"
			S.write(d .. "/n", data)
			local g <close> = assert(core.open_file(d .. "/n"))
			assert.are.equal(data, g:read(), n)
			local h = assert(io.open(d .. "/n", "ab"))
			h:write(("x"):rep(1500))
			h:close()
			assert.are.equal(data .. ("x"):rep(1500), g:read(), n)
		end
		f:close()
		f:close() -- idempotent
		assert.are.equal("sbx.file (closed)", tostring(f))
		assert.has_error(function() f:read() end, "attempt to use a closed file")
		assert.has_error(function() f:stat() end, "attempt to use a closed file")
		do
			local g <close> = assert(core.open_file(d .. "/sub/g"))
			assert.matches("^sbx.file ", tostring(g))
		end
		rm()
		local s = assert(core.stdin())
		assert.are.equal("sbx.file (stdin)", tostring(s))
		assert.is_string(assert(s:stat()).type)
		assert.has_error(function() s:read() end,
			"calling 'read' on bad self (a stream is relayed, not read whole)")
		s:close()
		-- a caller whose descriptor 0 is closed: the failure triple
		local out = S.sh(S.lua .. " -e 'package.cpath = \"build/?.so;\" .. package.cpath; "
			.. "print(require(\"sbx.core\").stdin())' <&-")
		assert.are.equal("nil\tdup stdin: Bad file descriptor\t" .. core.errno.EBADF .. "\n", out)
	end)

	it("output directories: open_dir, check, write", function()
		assert.has_error(function() core.open_dir() end,
			"bad argument #1 to 'open_dir' (string expected, got no value)")
		assert.has_error(function() core.open_dir("/tmp\0x") end,
			"bad argument #1 to 'open_dir' (path contains a NUL byte)")
		local ok, msg, err = core.open_dir("/nonexistent/d")
		assert.is_nil(ok)
		assert.are.equal("open /nonexistent/d: No such file or directory", msg)
		assert.are.equal(core.errno.ENOENT, err)
		ok, msg, err = core.open_dir("/etc/hostname")
		assert.is_nil(ok)
		assert.are.equal("open /etc/hostname: Not a directory", msg)
		assert.are.equal(core.errno.ENOTDIR, err)
		local d, rm = S.tmpdir()
		os.execute("mkdir " .. d .. "/sub " .. d .. "/gone; ln -s sub " .. d .. "/link")
		-- a symlink anywhere on the path: refused, not followed
		ok, msg, err = core.open_dir(d .. "/link")
		assert.is_nil(ok)
		assert.are.equal("open " .. d .. "/link: a symbolic link on the path (never followed)", msg)
		assert.are.equal(core.errno.ELOOP, err)
		ok, msg, err = core.open_dir(d .. "/link/.")
		assert.is_nil(ok)
		assert.are.equal("open " .. d .. "/link/.: a symbolic link on the path (never followed)", msg)
		assert.are.equal(core.errno.ELOOP, err)

		local dir = assert(core.open_dir(d))
		assert.are.equal("sbx.dir (" .. d .. ")", tostring(dir))
		for _, bad in ipairs { "", "a/b", ".", "..", "a\0b", ("x"):rep(256) } do
			assert.has_error(function() dir:write(bad, "x") end,
				"bad argument #1 to 'write' (a file name expected (one path component))")
			assert.has_error(function() dir:check(bad) end,
				"bad argument #1 to 'check' (a file name expected (one path component))")
		end
		assert.has_error(function() dir:write("x", {}) end)
		assert.has_error(function() dir:write() end)
		assert.has_error(function() dir.write({}, "x", "y") end)
		-- something other than a regular file at the name: EEXIST, left alone
		ok, msg, err = dir:check("sub")
		assert.is_nil(ok)
		assert.are.equal("write " .. d .. "/sub: is a directory, not a regular file", msg)
		assert.are.equal(core.errno.EEXIST, err)
		ok, msg, err = dir:write("link", "x")
		assert.is_nil(ok)
		assert.are.equal("write " .. d .. "/link: is a symlink, not a regular file", msg)
		assert.are.equal(core.errno.EEXIST, err)
		assert.are.equal("link", core.lstat(d .. "/link").type)
		-- absent, then a regular file: written, replaced, no temporary left
		assert.is_true(dir:check("out"))
		assert.is_true(dir:write("out", "one\n"))
		assert.is_true(dir:check("out"))
		assert.is_true(dir:write("out", "two\0\n"))
		assert.are.equal("two\0\n", S.read(d .. "/out"))
		assert.are.equal("gone\nlink\nout\nsub\n", (S.sh("ls -A " .. d)))
		dir:close()
		dir:close() -- idempotent
		assert.are.equal("sbx.dir (closed)", tostring(dir))
		assert.has_error(function() dir:write("x", "y") end, "attempt to use a closed directory")
		assert.has_error(function() dir:check("x") end, "attempt to use a closed directory")
		-- the directory removed after it was opened: the failure triple
		do
			local gone <close> = assert(core.open_dir(d .. "/gone"))
			os.execute("rmdir " .. d .. "/gone")
			ok, msg, err = gone:write("x", "y")
			assert.is_nil(ok)
			assert.are.equal("create " .. d .. "/gone/x: No such file or directory", msg)
			assert.are.equal(core.errno.ENOENT, err)
		end
		if S.euid() ~= 0 then
			local root = assert(core.open_dir("/"))
			ok, msg, err = root:check("x")
			root:close()
			assert.is_nil(ok)
			assert.are.equal("write /x: Permission denied", msg)
			assert.are.equal(core.errno.EACCES, err)
		end
		rm()
	end)

	it("output files of the facade: sbx.output", function()
		local sbx = require "sbx"
		assert.has_error(function() sbx.output() end, "bad argument #1 to 'output' (string expected, got nil)")
		for _, p in ipairs { "/tmp/", "/tmp/.", "/tmp/..", "" } do
			local ok, msg, err = sbx.output(p)
			assert.is_nil(ok)
			assert.are.equal("open " .. p .. ": names a directory, not a file", msg)
			assert.are.equal(sbx.errno.EISDIR, err)
		end
		-- a name past NAME_MAX, a NUL: said, never raised (a command line's
		-- --json, --html, --report reach here as typed)
		local long = "/tmp/" .. ("a"):rep(256)
		assert.are.same({ nil, "open " .. long .. ": file name too long", sbx.errno.ENAMETOOLONG },
			{ sbx.output(long) })
		assert.are.same({ nil, "open /tmp/a\0b: a NUL byte in the name", sbx.errno.EINVAL },
			{ sbx.output("/tmp/a\0b") })
		assert.is_truthy(sbx.output("/tmp/" .. ("a"):rep(255)))
		local ok, msg, err = sbx.output("/nonexistent/x")
		assert.is_nil(ok)
		assert.are.equal("open /nonexistent: No such file or directory", msg)
		assert.are.equal(sbx.errno.ENOENT, err)
		local d, rm = S.tmpdir()
		do
			local out <close> = assert(sbx.output(d .. "/r.txt"))
			assert.are.equal("sbx.output (" .. d .. "/r.txt)", tostring(out))
			assert.is_true(out:write("report\n"))
		end
		assert.are.equal("report\n", S.read(d .. "/r.txt"))
		rm()
	end)

	it("clear_setid: arguments, options and the failure triple", function()
		assert.has_error(function() core.clear_setid() end,
			"bad argument #1 to 'clear_setid' (string expected, got no value)")
		assert.has_error(function() core.clear_setid("tmp") end,
			"bad argument #1 to 'clear_setid' (absolute path expected)")
		assert.has_error(function() core.clear_setid("/" .. ("x"):rep(5000)) end,
			"bad argument #1 to 'clear_setid' (absolute path expected)")
		assert.has_error(function() core.clear_setid("/tmp", 5) end,
			"bad argument #2 to 'clear_setid' (table expected, got number)")
		assert.has_error(function() core.clear_setid("/tmp", { dryrun = true }) end,
			"bad argument #2 to 'clear_setid' (unknown key 'dryrun')")
		-- an option is checked before anything is opened: /nonexistent
		-- would otherwise answer with a triple
		local function bad(opts, pattern)
			local ok, msg = pcall(core.clear_setid, "/nonexistent", opts)
			assert.is_false(ok, pattern)
			assert.matches(pattern, msg, 1, true)
		end
		bad({ dryrun = true }, "unknown key 'dryrun'")
		bad({ uid = -1 }, "field 'uid' out of range (-1 not in 0..4294967294)")
		bad({ uid = "0" }, "field 'uid' must be an integer (got string)")
		bad({ dry_run = 1 }, "field 'dry_run' must be a boolean (got number)")
		bad({ max_depth = 0 }, "field 'max_depth' out of range")
		bad({ max_depth = 1025 }, "field 'max_depth' out of range")
		bad({ max_entries = 0 }, "field 'max_entries' out of range")
		bad({ [1] = true }, "unexpected non-string key")
		local ok, msg, err = core.clear_setid("/nonexistent/x")
		assert.is_nil(ok)
		assert.are.equal("open /nonexistent/x: No such file or directory", msg)
		assert.are.equal(core.errno.ENOENT, err)
		ok, msg, err = core.clear_setid("/proc/self/cwd")
		assert.is_nil(ok)
		assert.are.equal("open /proc/self/cwd: Too many levels of symbolic links", msg)
		assert.are.equal(core.errno.ELOOP, err)
	end)

	it("find_sockets: arguments, options and the failure triple", function()
		assert.has_error(function() core.find_sockets() end,
			"bad argument #1 to 'find_sockets' (string expected, got no value)")
		assert.has_error(function() core.find_sockets("tmp") end,
			"bad argument #1 to 'find_sockets' (absolute path expected)")
		assert.has_error(function() core.find_sockets("/" .. ("x"):rep(5000)) end,
			"bad argument #1 to 'find_sockets' (absolute path expected)")
		assert.has_error(function() core.find_sockets("/tmp", 5) end,
			"bad argument #2 to 'find_sockets' (table expected, got number)")
		assert.has_error(function() core.find_sockets("/tmp", { [1] = true }) end,
			"bad argument #2 to 'find_sockets' (unexpected non-string key (a number))")
		local function bad(opts, pattern)
			local ok, msg = pcall(core.find_sockets, "/nonexistent", opts)
			assert.is_false(ok, pattern)
			assert.matches(pattern, msg, 1, true)
		end
		-- clear_setid's own options are not find_sockets' options
		bad({ uid = 0 }, "unknown key 'uid'")
		bad({ dry_run = true }, "unknown key 'dry_run'")
		bad({ maxdepth = 2 }, "unknown key 'maxdepth'")
		bad({ max_depth = 0 }, "field 'max_depth' out of range")
		bad({ max_depth = 1025 }, "field 'max_depth' out of range")
		bad({ max_depth = 1.5 }, "field 'max_depth' must be an integer")
		bad({ max_entries = 0 }, "field 'max_entries' out of range")
		bad({ [1] = true }, "unexpected non-string key")
		local ok, msg, err = core.find_sockets("/nonexistent/x")
		assert.is_nil(ok)
		assert.are.equal("open /nonexistent/x: No such file or directory", msg)
		assert.are.equal(core.errno.ENOENT, err)
		ok, msg, err = core.find_sockets("/proc/self/cwd")
		assert.is_nil(ok)
		assert.are.equal("open /proc/self/cwd: Too many levels of symbolic links", msg)
		assert.are.equal(core.errno.ELOOP, err)
		ok, msg, err = core.find_sockets("/etc/passwd")
		assert.is_nil(ok)
		assert.are.equal("open /etc/passwd: Not a directory", msg)
		assert.are.equal(core.errno.ENOTDIR, err)
	end)

	it("find_sockets: every socket at any depth, no link followed, the bounds said", function()
		local d, rm = S.tmpdir()
		local out, rm2 = S.tmpdir()
		-- sockets bound (and left behind) by a host process; a FIFO, a
		-- file, a symlink to a socket and one to a directory of sockets
		local py = "import socket,sys\nfor p in sys.argv[1:]: socket.socket(socket.AF_UNIX).bind(p)"
		local cmd = ("cd %s && mkdir -p a/b/c && /usr/bin/python3 -c %s s a/b/c/deep %s/outside"
			.. " && mkfifo fifo && touch file && ln -s s link && ln -s %s out && ln -s %s/outside a/l")
			:format(S.q(d), S.q(py), S.q(out), S.q(out), S.q(out))
		local o, code = S.sh(cmd .. " 2>&1")
		assert(code == 0, o)
		local r = assert(core.find_sockets(d))
		-- a top reached through a symlink is refused, not followed
		local none, msg, err = core.find_sockets(d .. "/out")
		rm2()
		assert.is_nil(none)
		assert.are.equal(("open %s/out: Too many levels of symbolic links"):format(d), msg)
		assert.are.equal(core.errno.ELOOP, err)
		local paths = {}
		for _, f in ipairs(r.found) do
			paths[#paths + 1] = f.path
			assert.are.equal("found", f.action)
			assert.are.equal(S.euid(), f.uid)
			assert.is_number(f.mode)
		end
		table.sort(paths)
		assert.are.same({ "a/b/c/deep", "s" }, paths)
		assert.are.same({}, r.errors)
		assert.is_nil(r.truncated)
		assert.are.equal(10, r.entries) -- a a/b a/b/c deep a/l s fifo file link out
		-- too deep: said, and the walk goes on beside it
		r = assert(core.find_sockets(d, { max_depth = 2 }))
		assert.are.equal("depth", r.truncated)
		assert.are.equal(1, #r.found)
		assert.are.equal("s", r.found[1].path)
		assert.are.equal("a/b", r.errors[1].path)
		assert.are.equal("ELOOP", r.errors[1].errname)
		-- too many entries: stopped, and said
		r = assert(core.find_sockets(d, { max_entries = 3 }))
		assert.are.equal("entries", r.truncated)
		assert.are.equal(3, r.entries)
		rm()
	end)

	it("small queries", function()
		assert.has_error(function() core.ns_ids(-1) end, "bad argument #1 to 'ns_ids' (invalid pid)")
		assert.has_error(function() core.ns_ids("x") end)
		local ok, msg, err = core.ns_ids(2 ^ 30)
		assert.is_nil(ok)
		assert.matches("^readlink /proc/%d+/ns/user: No such file or directory$", msg)
		assert.are.equal(core.errno.ENOENT, err)
		assert.is_string(core.caps())
		assert.is_true(core.last_cap() >= 40)
		assert.are.same({ "user", "mount", "pid", "ipc", "uts", "net", "cgroup" }, core.namespaces())
		assert.is_true(#core.rlimit_names() >= 15)
		assert.is_true(#core.mount_types() == 10)
		local abi, rights = core.landlock_abi()
		assert.is_number(abi)
		assert.is_table(rights)
		assert.are.equal(1, core.errno.EPERM)
		assert.are.equal(9, core.signal.SIGKILL)
	end)
end)
