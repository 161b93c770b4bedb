-- SPDX-License-Identifier: MIT
-- sbx.profile's cache of compiled programs (docs/performance.md).
--
-- Each case runs real boxes (`sbxlua run.lua`) with XDG_CACHE_HOME set to
-- a fresh directory, and asks build/tests/sysprobe inside the box how two
-- calls of the default profile's deny-list end: io_setup (ENOSYS under
-- the filter, EFAULT without it) and mount (EPERM under the filter, EFAULT
-- without it).  A planted entry holds a well-formed program that allows
-- everything, with the right hash: loaded, the box would answer EFAULT.
-- So each refusal is seen in what the box enforces, and a positive control
-- shows that a sound entry of the caller's own is loaded.
-- scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"
local core = require "sbx.core"
local profile = require "sbx.profile"

local root = S.euid() == 0
local PROBE = (os.getenv("PWD") or S.sh("pwd"):gsub("%s+$", "")) .. "/build/tests/sysprobe"
local FORMAT = "sbxlua-bpf 4"
local ENFORCED = "io_setup=ENOSYS mount=EPERM"
local OPEN = "io_setup=EFAULT mount=EFAULT"

-- The box's answers to the two calls, with cache base xdg ("" for none).
local function probe(xdg)
	local got = {}
	for _, call in ipairs { "io_setup", "mount" } do
		local out, err, code = S.runlua_env("XDG_CACHE_HOME=" .. S.q(xdg) .. " HOME=", PROBE, call)
		assert(code == 0, "sbxlua failed: " .. err)
		got[#got + 1] = call .. "=" .. out:gsub("%s+$", "")
	end
	return table.concat(got, " ")
end

-- The default profile's entry name, and a sound entry (right key: the
-- format, libseccomp's version and architecture, sbxlua's build, name_refusals, the text of each file
-- read for the profile; right hash) whose program allows every call.
local function planted()
	local f <close> = assert(core.open_file(assert(profile.dir()) .. "/default.lua"))
	local text = f:read(profile.MAX_SIZE)
	-- run.lua names the profile's refusals (name_refusals)
	-- the build of the sbxlua that reads the cache (filter_abi names it):
	-- this interpreter's sbx.core is another build
	local abi = S.sh(S.bin .. " -e 'io.write(require(\"sbx.core\").filter_abi())'")
	assert.matches(" build %x+$", abi)
	local key = table.concat({ FORMAT, abi, "name_refusals true memfd_create", #text .. ":" .. text }, "\n")
	local allow = assert(core.filter { default = "allow" })
	local bpf = allow:export()
	allow:close()
	local body = FORMAT .. "\n0 - - 0\n"
	return core.sha256(key), body .. core.sha256(key .. "\0" .. body .. bpf) .. "\n" .. bpf
end

local function inode(path)
	return (S.sh("stat -c %i " .. S.q(path)):gsub("%s+$", ""))
end

describe("profile cache [" .. S.priv .. "]", function()
	local base, remove, name, sound
	S.leak_check(before_each, after_each, assert)

	before_each(function()
		base, remove = S.tmpdir()
		name, sound = planted()
	end)
	after_each(function() remove() end)

	it("enforces what a fresh compile enforces, and keeps the entry 0700/owned", function()
		assert.are.equal(ENFORCED, probe(""))
		assert.are.equal(ENFORCED, probe(base)) -- compiled, then written
		local dir = assert(core.lstat(base .. "/sbxlua"))
		assert.are.equal("dir", dir.type)
		assert.are.equal(tonumber("700", 8), dir.mode & tonumber("777", 8))
		assert.are.equal(S.euid(), dir.uid)
		local st = assert(core.lstat(base .. "/sbxlua/" .. name))
		assert.are.equal("file", st.type)
		assert.are.equal(S.euid(), st.uid)
		local ino = inode(base .. "/sbxlua/" .. name)
		assert.are.equal(ENFORCED, probe(base)) -- loaded from the entry
		assert.are.equal(ino, inode(base .. "/sbxlua/" .. name), "a sound entry is not rewritten")
	end)

	it("loads a sound entry of the caller's own (the control of the cases below)", function()
		assert.is_true(core.mkdir(base .. "/sbxlua", tonumber("700", 8)))
		S.write(base .. "/sbxlua/" .. name, sound, "600")
		assert.are.equal(OPEN, probe(base))
	end)

	it("refuses an entry of another owner and compiles afresh", function()
		if not root then
			pending("an unprivileged caller cannot put another owner's file in its own 0700 "
				.. "directory (fs.protected_hardlinks): the case runs as root")
			return
		end
		assert.is_true(core.mkdir(base .. "/sbxlua", tonumber("700", 8)))
		local path = base .. "/sbxlua/" .. name
		S.write(path, sound, "644")
		S.sh("chown 65534:65534 " .. S.q(path))
		assert.are.equal(ENFORCED, probe(base))
		-- replaced by the caller's own, compiled entry
		assert.are.equal(S.euid(), assert(core.lstat(path)).uid)
		assert.are_not.equal(sound, S.read(path))
		assert.are.equal(ENFORCED, probe(base))
	end)

	it("refuses an entry that is a symlink, and leaves the link as it is", function()
		assert.is_true(core.mkdir(base .. "/sbxlua", tonumber("700", 8)))
		S.write(base .. "/target", sound, "600")
		local path = base .. "/sbxlua/" .. name
		S.sh("ln -s ../target " .. S.q(path))
		assert.are.equal(ENFORCED, probe(base))
		assert.are.equal("link", assert(core.lstat(path)).type)
		assert.are.equal(sound, S.read(base .. "/target"))
	end)

	it("refuses a cache directory that is a symlink", function()
		assert.is_true(core.mkdir(base .. "/real", tonumber("700", 8)))
		S.write(base .. "/real/" .. name, sound, "600")
		S.sh("ln -s real " .. S.q(base .. "/sbxlua"))
		assert.are.equal(ENFORCED, probe(base))
	end)

	it("refuses a group-writable directory and writes nothing there", function()
		assert.is_true(core.mkdir(base .. "/sbxlua", tonumber("700", 8)))
		S.write(base .. "/sbxlua/" .. name, sound, "600")
		S.sh("chmod 0770 " .. S.q(base .. "/sbxlua"))
		assert.are.equal(ENFORCED, probe(base))
		assert.are.equal(sound, S.read(base .. "/sbxlua/" .. name))
	end)

	it("refuses a group-writable entry", function()
		assert.is_true(core.mkdir(base .. "/sbxlua", tonumber("700", 8)))
		S.write(base .. "/sbxlua/" .. name, sound, "620")
		assert.are.equal(ENFORCED, probe(base))
	end)

	it("refuses a corrupted entry and compiles afresh", function()
		assert.are.equal(ENFORCED, probe(base))
		local path = base .. "/sbxlua/" .. name
		local good = assert(S.read(path))
		-- one byte of the program changed: the hash no longer matches
		local at = #good - 3
		local byte = good:byte(at)
		S.write(path, good:sub(1, at - 1) .. string.char(byte ~ 1) .. good:sub(at + 1), "600")
		assert.are.equal(ENFORCED, probe(base))
		assert.are.equal(good, S.read(path), "rewritten by a fresh compile")
		-- truncated, then a permissive program with a wrong hash
		S.write(path, good:sub(1, #good // 2), "600")
		assert.are.equal(ENFORCED, probe(base))
		assert.are.equal(good, S.read(path))
		S.write(path, sound:gsub("\n%x+\n", "\n" .. ("0"):rep(64) .. "\n", 1), "600")
		assert.are.equal(ENFORCED, probe(base))
		assert.are.equal(good, S.read(path))
	end)

	it("compiles afresh when a call list or a profile the profile loads changes", function()
		-- a tree of its own: sbxlua finds lua/ beside itself, and the
		-- named profiles (and their call lists) in lua/../profiles
		local tree = base .. "/tree"
		S.sh(("mkdir -p %s/profiles/calls && cp -r lua %s/lua && cp %s %s/sbxlua")
			:format(S.q(tree), S.q(tree), S.q(S.bin), S.q(tree)))
		local host = assert(profile.host())
		local list = ("%s/profiles/calls/%s-%s-cachetest.lua"):format(tree, host.arch, host.libc)
		local inner = tree .. "/profiles/inner.lua"
		local function inner_text(errno)
			return 'local list = (...).calls("cachetest")\n'
				.. "local rules = {}\n"
				.. "for i = 1, #list do rules[i] = { call = list[i], action = { errno = \"" .. errno .. "\" } } end\n"
				.. 'return { default = "allow", rules = rules }\n'
		end
		S.write(list, 'return { "memfd_create" }\n', "644")
		S.write(inner, inner_text("ENOSYS"), "644")
		S.write(tree .. "/profiles/outer.lua", 'return (...).load("inner")\n', "644")
		local cache = base .. "/cache"
		local function run(call)
			local bin = S.bin
			S.bin = tree .. "/sbxlua"
			local out, err, code = S.runlua_env("XDG_CACHE_HOME=" .. S.q(cache) .. " HOME=",
				"--profile", "outer", PROBE, call)
			S.bin = bin
			assert(code == 0, "sbxlua failed: " .. err)
			return call .. "=" .. out:gsub("%s+$", "")
		end
		local function entries()
			return tonumber((S.sh("ls -A " .. S.q(cache .. "/sbxlua") .. " | wc -l")))
		end
		assert.are.equal("memfd_create=ENOSYS", run("memfd_create"))
		assert.are.equal("mount=EFAULT", run("mount"))
		assert.are.equal(1, entries())
		-- the call list changed: the cached program of the old list is
		-- not served
		S.write(list, 'return { "mount" }\n', "644")
		assert.are.equal("memfd_create=EFAULT", run("memfd_create"))
		assert.are.equal("mount=ENOSYS", run("mount"))
		assert.are.equal(2, entries())
		-- the loaded profile changed
		S.write(inner, inner_text("EPERM"), "644")
		assert.are.equal("mount=EPERM", run("mount"))
		assert.are.equal(3, entries())
		-- and back: the first program's entry serves again, none is added
		S.write(list, 'return { "memfd_create" }\n', "644")
		S.write(inner, inner_text("ENOSYS"), "644")
		assert.are.equal("memfd_create=ENOSYS", run("memfd_create"))
		assert.are.equal(3, entries())
	end)

	it("keeps the errno of each named refusal: a cached program answers as a fresh one in every mode", function()
		-- run.lua compiles with name_refusals: ptrace is refused EPERM and
		-- named; in log mode the supervisor lets a named call through
		-- unless the filter says which errno it answers with
		local hostile = "build/tests/hostile"
		for _, mode in ipairs { "deny", "log", "stop" } do
			local runs = {}
			for i = 1, 2 do
				local out, err, code = S.runlua_env("XDG_CACHE_HOME=" .. S.q(base) .. " HOME=",
					"--mode", mode, hostile, "ptrace")
				runs[i] = { out, err, code }
			end
			assert.are.same(runs[1], runs[2], mode)
			if mode ~= "stop" then
				assert.are.equal("ptrace: Operation not permitted\n", runs[2][1], mode)
				assert.matches("syscall 101 %(ptrace%)", runs[2][2], nil, mode)
			else
				assert.are.equal(125, runs[2][3])
			end
		end
		-- one entry, written by the first run, served to the others
		assert.are.equal(1, tonumber((S.sh("ls -A " .. S.q(base .. "/sbxlua") .. " | wc -l"))))
		local f = assert(profile.filter("default", { name_refusals = true }))
		local g = assert(profile.filter("default", { name_refusals = true, nocache = true }))
		assert.are.same(g:info().errnos, f:info().errnos)
		assert.is_true(next(g:info().errnos) ~= nil)
		-- every named refusal with its comparisons, through the entry
		assert.are.same(g:info().refusals, f:info().refusals)
		assert.is_true(#g:info().refusals > 100)
	end)

	it("checks its arguments", function()
		assert.has_error(function() core.filter_bpf(1, 0, false) end)
		assert.has_error(function() core.filter_bpf("1234567", 0, false) end,
			"bad argument #1 to 'filter_bpf' (not a BPF program)")
		assert.has_error(function() core.filter_bpf(("\0"):rep(8), 0, false) end,
			"bad argument #1 to 'filter_bpf' (does not start with the architecture's load)")
		assert.has_error(function() core.filter_bpf(("\0"):rep(8), -1, false) end,
			"bad argument #2 to 'filter_bpf' (negative)")
		assert.has_error(function() core.filter_bpf(("\0"):rep(8), 0, nil) end)
		assert.has_error(function() core.mkdir("/tmp/x", -1) end, "bad argument #2 to 'mkdir' (invalid mode)")
		assert.has_error(function() profile.filter(1) end,
			"bad argument #1 to 'filter' (string expected, got number)")
		assert.has_error(function() profile.filter("default", true) end,
			"bad argument #2 to 'filter' (table expected, got boolean)")
		assert.has_error(function() profile.filter("default", { cache = false }) end,
			"bad argument #2 to 'filter' (unknown key 'cache')")
		assert.has_error(function() core.filter_bpf(("\0"):rep(8), 0, false, 1) end)
		assert.has_error(function() core.filter_bpf(("\0"):rep(8), 0, false, false, { [1] = 0 }) end)
		-- the refusals (argument 5) packed as f:export_refusals() gives them: nr and
		-- errno as 16-bit words, a count of comparisons, then each as an
		-- index and operator byte and two 64-bit data
		local bpf = assert(core.filter { default = "allow" }):export()
		local function refusals(r) return function() core.filter_bpf(bpf, 0, true, false, r) end end
		local function cmp(i, op, a, b) return string.pack("=BBI8I8", i, op, a, b) end
		assert.has_error(refusals {}, "bad argument #5 to 'filter_bpf' (string expected, got table)")
		assert.has_error(refusals("\1\0\1\0"), "bad argument #5 to 'filter_bpf' (truncated refusal)")
		for _, bad in ipairs {
			string.pack("=I2I2B", 1, 0, 0), -- errno 0
			string.pack("=I2I2B", 1, 4096, 0), -- past MAX_ERRNO
			string.pack("=I2I2B", 4096, 1, 0), -- no such call number
			string.pack("=I2I2B", 1, 1, 7), -- seven comparisons
			string.pack("=I2I2B", 1, 1, 1), -- a comparison missing
			string.pack("=I2I2B", 1, 1, 1) .. cmp(6, 4, 1, 0), -- argument index 6
			string.pack("=I2I2B", 1, 1, 1) .. cmp(0, 0, 1, 0), -- operator 0
			string.pack("=I2I2B", 1, 1, 1) .. cmp(0, 8, 1, 0), -- operator 8
		} do
			assert.has_error(refusals(bad), "bad argument #5 to 'filter_bpf' (refusal 1 malformed)")
		end
		assert.has_error(refusals(string.pack("=I2I2B", 1, 1, 0) .. string.pack("=I2I2B", 1, 0, 0)),
			"bad argument #5 to 'filter_bpf' (refusal 2 malformed)")
		-- a filter's own refusals, through export and back
		local named = assert(core.filter { default = "allow", rules = {
			{ call = "socket", action = { errno = "EACCES", notify = true },
				args = { { 0, "&==", 0x10000000, 0x10000000 } } },
			{ call = "ptrace", action = { errno = "EPERM", notify = true } } } })
		local prog, packed = named:export(), named:export_refusals()
		local f = core.filter_bpf(prog, 2, true, false, packed)
		assert.are.same(named:info().refusals, f:info().refusals)
		assert.are.same({ { nr = 41, errno = 13, args = { { 0, "&==", 0x10000000, 0x10000000 } } },
			{ nr = 101, errno = 1, args = {} } }, f:info().refusals)
		named:close()
		assert.has_error(function() named:export_refusals() end, "attempt to use a closed filter")
		assert.has_error(function() core.filter_bpf(prog, 2, true, false, packed .. "\1") end,
			"bad argument #5 to 'filter_bpf' (truncated refusal)")
		f:close()
		-- room for the records there are: 500 refusals of six comparisons
		-- (56 KB packed) held in their own room, not in room for the 11,300
		-- records of five bytes their length could hold
		local six = string.pack("=I2I2B", 1, 1, 6) .. cmp(0, 4, 1, 0):rep(6)
		collectgarbage("stop")
		local before = collectgarbage("count")
		local g = core.filter_bpf(prog, 2, true, false, six:rep(500))
		local grew = collectgarbage("count") - before
		collectgarbage("restart")
		assert.are.equal(500, #g:info().refusals)
		assert.is_true(grew < 4 * 500 * 160 / 1024, ("%.0f KB"):format(grew))
		g:close()
	end)
end)
