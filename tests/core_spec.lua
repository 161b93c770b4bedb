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
		box_err({ argv = {} }, "field 'argv' must hold 1 to 65536 strings")
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
			"sysctl 'kernel.pid_max': only user.NAME (a limit of the box's own user namespace) can be set")
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
			for i = 1, 9 do many["user.x" .. i] = 1 end
			box_err(with { sysctl = many }, "too many sysctls (at most 8)")
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
		box_err(with { stdout = "file" }, "field 'stdout' must be 'capture', 'pass' or 'discard'")
		box_err(with { stdin = 5 }, "field 'stdin' must be a string")
		box_err(with { stdin = "x", stdin_file = "/etc/hostname" }, "not both")
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
		assert.is_boolean(core.isatty(0))
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
		assert.is_true(#core.mount_types() == 9)
		local abi, rights = core.landlock_abi()
		assert.is_number(abi)
		assert.is_table(rights)
		assert.are.equal(1, core.errno.EPERM)
		assert.are.equal(9, core.signal.SIGKILL)
	end)
end)
