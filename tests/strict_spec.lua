-- SPDX-License-Identifier: MIT
-- The strict profile (profiles/strict.lua), its measured lists
-- (profiles/calls/, scripts/trace-profile.sh) and their loader (sbx.profile).
--
-- The lists are re-measured on this machine (trace-profile.sh --check runs
-- strace -f over the corpus, outside the box; strace traces its own
-- children, so no privilege is needed).  The compiled profile is read back
-- from its BPF program, run in a small interpreter for every call the
-- supervisor must see and every call the default profile refuses.  The
-- corpus programs then run their work under the compiled filter loaded in
-- their own process (corpus.h: no listener, so a notified call fails with
-- ENOSYS, as the kernel answers without a supervisor), and in the box with
-- `--profile strict`, which needs the notification channel: the box's own
-- execve is a notified call.
-- scripts/test.sh runs this file as root and as uid 65534.
local core = require "sbx.core"
local profile = require "sbx.profile"
local S = require "support"

local STEPS = { "program", "threads", "net", "spawn" }
local DEFAULT_STEPS = { "program", "threads", "spawn" }
local CAP = 64 << 20

local AUDIT_ARCH_X86_64 = 0xc000003e
local RET_KILL_PROCESS = 0x80000000
local RET_ALLOW = 0x7fff0000
local RET_USER_NOTIF = 0x7fc00000

-- The calls the supervisor must see, never allowed whatever their arguments.
local ALWAYS_NOTIFIED = { "open", "openat", "openat2", "creat", "execve", "execveat",
	"connect", "bind", "sendmsg", "sendmmsg", "clone3", "fork", "vfork", "ptrace",
	"unshare", "setns", "mount",
	-- the delete, rename and attribute events of the behaviour summary
	"unlink", "unlinkat", "rmdir", "rename", "renameat", "renameat2",
	"chmod", "fchmod", "fchmodat", "fchmodat2", "chown", "fchown", "lchown", "fchownat",
	"utime", "utimes", "futimesat", "utimensat", "setxattr", "lsetxattr", "fsetxattr",
	"removexattr", "lremovexattr", "fremovexattr" }

local decode, bpf_run = S.bpf_decode, S.bpf_run

local function nr(name)
	return assert(core.syscall_number(name), name)
end

-- The compiled strict profile of steps: its spec, filter and decoded program.
local function strict(steps)
	local spec = assert(profile.load("strict", { steps = steps }))
	local f = assert(profile.compile(spec))
	local prog = decode(f:export())
	local info = f:info()
	f:close()
	return spec, info, prog
end

-- The filter's answer to call with args, under prog.
local function answer(prog, call, args)
	return bpf_run(prog, { nr = nr(call), arch = AUDIT_ARCH_X86_64, args = args })
end

local function set(list)
	local t = {}
	for _, v in ipairs(list) do t[v] = true end
	return t
end

-- The union of the measured lists of steps, as a set.
local function listed(steps)
	local t = {}
	for _, step in ipairs(steps) do
		for _, name in ipairs(assert(profile.calls(step))) do t[name] = true end
	end
	return t
end

local write = S.write

-- the script checks names with sbx.core under the suite's own Lua
local TRACE = "LUA=" .. S.q(S.lua) .. " scripts/trace-profile.sh"

describe("the strict profile's lists [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	local host = assert(profile.host())

	it("the host is an architecture and C library the lists name", function()
		assert.equal("x86_64", host.arch)
		assert.equal("glibc", host.libc)
	end)

	it("trace-profile.sh --check: every call the corpus makes here is in its list", function()
		local out, code = S.sh(TRACE .. " --check 2>&1")
		assert.equal(0, code, out)
		for _, step in ipairs(STEPS) do
			local line = ("trace-profile: profiles/calls/%s-%s-%s.lua holds all "):format(host.arch, host.libc, step)
			local at = out:find(line, 1, true)
			assert.is_truthy(at, out)
			assert.is_truthy(out:find("^%d+ calls traced\n", at + #line), out)
		end
	end)

	describe("in a copy of the lists", function()
		local dir, cleanup
		before_each(function()
			dir, cleanup = S.tmpdir()
			assert(os.execute(("cp profiles/calls/*.lua %s/"):format(S.q(dir))))
		end)
		after_each(function() cleanup() end)

		-- trace-profile.sh args over dir's lists, after the shell words
		-- pre: its output (stderr too) and status
		local function trace(args, pre)
			return S.sh(("%sSBX_CALLS_DIR=%s %s %s 2>&1"):format(pre or "", S.q(dir), TRACE, args))
		end

		local function list_file(step)
			return ("%s/%s-%s-%s.lua"):format(dir, host.arch, host.libc, step)
		end

		-- rewrites step's list by edit (text to text); its path
		local function edit_list(step, edit)
			local path = list_file(step)
			write(path, (edit(S.read(path))))
			return path
		end

		it("--check fails, naming the calls a list lacks", function()
			local path = edit_list("threads", function(text)
				return text:gsub('\t"exit_group",\n', ""):gsub('\t"futex",\n', "")
			end)
			local out, code = trace("--check threads")
			assert.equal(1, code, out)
			assert.equal(("trace-profile: %s lacks: exit_group futex \n"):format(path), out)
		end)

		it("a name libseccomp does not know stops the script, and no list is written", function()
			-- a strace that adds a line for a call of that name
			local shim = dir .. "/bin"
			assert(os.execute("mkdir " .. S.q(shim)))
			write(shim .. "/strace", table.concat({
				"#!/bin/sh",
				"/usr/bin/strace \"$@\"; rc=$?",
				"while [ $# -gt 0 ]; do",
				"\t[ \"$1\" = -o ] && echo '4242  not_a_call(0) = 0' >>\"$2\"",
				"\tshift",
				"done",
				"exit $rc", "" }, "\n"), "0755")
			local path = list_file("threads")
			local before = S.read(path)
			local out, code = trace("threads", "PATH=" .. S.q(shim) .. ":$PATH ")
			assert.equal(2, code, out)
			assert.equal("trace-profile: threads: names libseccomp does not know: not_a_call \n", out)
			assert.equal(before, S.read(path))
		end)

		it("--union adds the traced calls and keeps the others", function()
			-- kcmp: a call the corpus never makes
			local path = edit_list("threads", function(text)
				return text:gsub('\t"futex",\n', ""):gsub('\t"getrandom",\n', '%0\t"kcmp",\n')
			end)
			local out, code = trace("--union threads")
			assert.equal(0, code, out)
			local after = S.read(path)
			assert.is_truthy(after:find('\t"kcmp",\n', 1, true), after)
			assert.is_truthy(after:find('\t"futex",\n', 1, true), after)
			assert.is_truthy(after:find("-- Merged (--union)", 1, true), after)
			local out2, code2 = trace("--check threads")
			assert.equal(0, code2, out2)
		end)
	end)

	for _, step in ipairs(STEPS) do
		it(step .. ": its list loads, sorted, known to libseccomp, with how it was made", function()
			local list = assert(profile.calls(step))
			assert.is_true(#list > 10)
			for i, name in ipairs(list) do
				assert.is_truthy(core.syscall_number(name), name)
				if i > 1 then assert.is_true(list[i - 1] < name) end
			end
			-- strace -c drops exit_group: the lists do not come from it
			assert.is_true(set(list).exit_group)
			local text = S.read(("profiles/calls/%s-%s-%s.lua"):format(host.arch, host.libc, step))
			for _, needle in ipairs { "scripts/trace-profile.sh", "strace ", "-f -qq -e trace=all",
				"kernel ", "glibc ", " on " .. host.arch .. " ", "build/tests/corpus_" .. step } do
				assert.is_truthy(text:find(needle, 1, true), needle)
			end
		end)
	end

	describe("a list profile.calls refuses", function()
		local dir, cleanup, saved
		local base = ("%s-%s-"):format("x86_64", "glibc")
		before_each(function()
			dir, cleanup = S.tmpdir()
			-- sbx.config's luadir names the profiles directory: <luadir>/../profiles
			assert(os.execute(("mkdir -p %s/lua %s/profiles/calls && cp profiles/strict.lua profiles/default.lua %s/profiles/")
				:format(S.q(dir), S.q(dir), S.q(dir))))
			saved = package.loaded["sbx.config"]
			package.loaded["sbx.config"] = { luadir = dir .. "/lua" }
		end)
		after_each(function()
			package.loaded["sbx.config"] = saved
			cleanup()
		end)

		local function bad(text)
			write(("%s/profiles/calls/%sbad.lua"):format(dir, base), text)
			return profile.calls("bad", { arch = "x86_64", libc = "glibc" })
		end

		-- the list text is refused with msg
		local function refused(text, msg)
			local list, got = bad(text)
			assert.is_nil(list)
			assert.equal(msg, got)
		end

		it("an unknown name, named with its entry", function()
			local list, msg = bad('return { "read", "not_a_call", "write" }\n')
			assert.is_nil(list)
			assert.equal("calls x86_64-glibc-bad: unknown system call 'not_a_call' (entry 2)", msg)
			local p, pmsg = profile.load("strict", { steps = { "bad" }, arch = "x86_64", libc = "glibc" })
			assert.is_nil(p)
			assert.equal("profile strict: calls x86_64-glibc-bad: unknown system call 'not_a_call' (entry 2)", pmsg)
		end)

		it("a name out of order or repeated", function()
			refused('return { "read", "read" }\n', "calls x86_64-glibc-bad: 'read' (entry 2) is out of order or repeated")
			refused('return { "write", "read" }\n', "calls x86_64-glibc-bad: 'read' (entry 2) is out of order or repeated")
		end)

		it("something else than an array of names", function()
			refused('return { "read", 42 }\n', "calls x86_64-glibc-bad: entry 2 is a number, not a name")
			refused('return { read = true }\n', "calls x86_64-glibc-bad: key read is not an array index")
			refused('return "read"\n', "calls x86_64-glibc-bad: returns a string, not an array of names")
			local _, msg = bad('return { os.exit() }\n')
			assert.is_truthy(msg:find("^calls x86_64%-glibc%-bad: .*attempt to index a nil value"), msg)
		end)

		it("a list writable by others, as a profile is", function()
			write(("%s/profiles/calls/%sbad.lua"):format(dir, base), 'return { "read" }\n', "0666")
			local _, msg = profile.calls("bad", { arch = "x86_64", libc = "glibc" })
			assert.is_truthy(msg:find("is writable by group or others (mode 0666)", 1, true), msg)
		end)

		it("a missing list", function()
			local p, msg = profile.load("strict", { steps = { "nothere" } })
			assert.is_nil(p)
			assert.is_truthy(msg:find("^profile strict: calls [%w_]+%-[%w_]+%-nothere: cannot open "), msg)
		end)

		it("bad arguments raise", function()
			assert.has_error(function() profile.calls(1) end,
				"bad argument #1 to 'calls' (string expected, got number)")
			assert.has_error(function() profile.calls("a/b") end,
				"bad argument #1 to 'calls' (invalid step name 'a/b')")
			assert.has_error(function() profile.calls("net", { arc = "x" }) end,
				"bad argument #2 to 'calls' (unknown key 'arc')")
			assert.has_error(function() profile.calls("net", { arch = "../x" }) end,
				"bad argument #2 to 'calls' (invalid arch)")
			assert.has_error(function() profile.load("strict", { steps = {} }) end,
				"bad argument #2 to 'load' (steps: a non-empty list of step names expected)")
			assert.has_error(function() profile.load("strict", { steps = { "x/y" } }) end,
				"bad argument #2 to 'load' (steps[1]: invalid step name)")
			assert.has_error(function() profile.load("strict", { step = { "net" } }) end,
				"bad argument #2 to 'load' (unknown key 'step')")
		end)
	end)
end)

describe("the compiled strict profile [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	local default = assert(profile.load("default"))
	local dprog
	do
		local f = assert(profile.compile(default))
		dprog = decode(f:export())
		f:close()
	end
	-- where the default profile refuses, the strict one answers as it does
	-- (its errno, from the kernel, in every mode); else the supervisor
	local function refused_or_notified(call, args)
		local d = answer(dprog, call, args)
		return d == RET_ALLOW and RET_USER_NOTIF or d
	end

	for _, steps in ipairs { DEFAULT_STEPS, STEPS } do
		local label = table.concat(steps, "+")
		local spec, info, prog = strict(steps)
		local lists = listed(steps)

		it(label .. ": notify by default, within BPF_MAXINSNS, the architecture checked first", function()
			assert.equal("notify", spec.default)
			assert.is_true(info.notify)
			assert.is_true(info.insns < 4096)
			assert.same({}, info.skipped)
			assert.equal(RET_KILL_PROCESS, bpf_run(prog, { nr = 0, arch = 0x40000003 }))
			-- a call neither listed nor refused by the default profile
			local other
			for _, c in ipairs { "getcpu", "sched_getattr", "mincore", "timer_create" } do
				if not lists[c] and answer(dprog, c, {}) == RET_ALLOW then other = c break end
			end
			assert.is_string(other)
			assert.equal(RET_USER_NOTIF, answer(prog, other, {}))
		end)

		it(label .. ": every rule allows or is the default's refusal; no call the supervisor must see is plainly allowed",
			function()
			local never = set(ALWAYS_NOTIFIED)
			for _, r in ipairs(spec.rules) do
				if r.action ~= "allow" then
					assert.is_false(r.action.notify, r.call)
					assert.is_not_nil(r.action.errno, r.call)
				else
					assert.is_true(lists[r.call] or r.call == "clone", r.call)
					assert.is_falsy(never[r.call], r.call)
				end
			end
			for _, call in ipairs(ALWAYS_NOTIFIED) do
				for _, args in ipairs { {}, { 0x11, 0, 0, 0, 0, 0 }, { -1, -1, -1, -1, -1, -1 } } do
					assert.equal(refused_or_notified(call, args), answer(prog, call, args), call)
				end
			end
		end)

		it(label .. ": every call the default profile refuses is never allowed where it refuses", function()
			-- the default's own argument cases (its rules' comparisons made true)
			for _, r in ipairs(default.rules) do
				local args = { 0, 0, 0, 0, 0, 0 }
				for _, c in ipairs(r.args or {}) do
					local i, op, v, mask = c[1] + 1, c[2], c[3], c[4]
					if op == "==" or op == "&==" then args[i] = v | (args[i] & ~(mask or -1))
					elseif op == "!=" then args[i] = v + 1
					elseif op == ">" then args[i] = v + 1
					else error("op " .. op) end
				end
				local want = answer(dprog, r.call, args)
				assert.are_not.equal(RET_ALLOW, want, r.call)
				assert.equal(want, answer(prog, r.call, args),
					r.call .. " " .. table.concat(args, ","))
			end
		end)

		it(label .. ": the lists' other calls are allowed", function()
			local refused = {}
			for _, r in ipairs(default.rules) do refused[r.call] = true end
			local never = set(ALWAYS_NOTIFIED)
			for call in pairs(lists) do
				if not never[call] and not refused[call] and call ~= "clone"
					and call ~= "mmap" and call ~= "mremap" and call ~= "sendto" then
					assert.equal(RET_ALLOW, answer(prog, call, { -1, -1, -1, -1, -1, -1 }), call)
				end
			end
		end)

		it(label .. ": clone only for a thread, with no namespace flag", function()
			-- glibc's pthread_create when clone3 is refused
			local thread = 0x3d0f00
			assert.equal(RET_ALLOW, answer(prog, "clone", { thread }))
			assert.equal(RET_USER_NOTIF, answer(prog, "clone", { 17 })) -- fork: SIGCHLD
			assert.equal(RET_USER_NOTIF, answer(prog, "clone", { 0x4111 })) -- posix_spawn: VM|VFORK|SIGCHLD
			for _, ns in ipairs { 0x00020000, 0x02000000, 0x04000000, 0x08000000, 0x10000000,
				0x20000000, 0x40000000 } do
				assert.equal(refused_or_notified("clone", { thread | ns }),
					answer(prog, "clone", { thread | ns }), ns)
			end
		end)

		it(label .. ": mmap and mremap over the cap (64 MiB) are notified", function()
			assert.equal(RET_ALLOW, answer(prog, "mmap", { 0, 4096 }))
			assert.equal(RET_ALLOW, answer(prog, "mmap", { 0, CAP }))
			assert.equal(RET_USER_NOTIF, answer(prog, "mmap", { 0, CAP + 1 }))
			assert.equal(RET_USER_NOTIF, answer(prog, "mmap", { 0, 1 << 32 }))
			assert.equal(RET_USER_NOTIF, answer(prog, "mmap", { 0, -1 }))
			if lists.mremap then
				assert.equal(RET_ALLOW, answer(prog, "mremap", { 0, 0, CAP }))
				assert.equal(RET_USER_NOTIF, answer(prog, "mremap", { 0, 0, CAP + 1 }))
			else
				assert.equal(RET_USER_NOTIF, answer(prog, "mremap", { 0, 0, 4096 }))
			end
		end)

		it(label .. ": sendto with an address is notified", function()
			assert.equal(RET_USER_NOTIF, answer(prog, "sendto", { 3, 0, 4, 0, 0x7ffd0000, 16 }))
			assert.equal(lists.sendto and RET_ALLOW or RET_USER_NOTIF,
				answer(prog, "sendto", { 3, 0, 4, 0, 0, 0 }))
		end)

		it(label .. ": the default's conditional refusals, both sides", function()
			local TCGETS, TIOCSTI, TIOCLINUX = 0x5401, 0x5412, 0x541C
			assert.equal(RET_ALLOW, answer(prog, "ioctl", { 0, TCGETS }))
			for _, req in ipairs { TIOCSTI, TIOCLINUX, TIOCSTI | (1 << 32), TIOCLINUX | (7 << 40) } do
				assert.equal(refused_or_notified("ioctl", { 0, req }), answer(prog, "ioctl", { 0, req }), req)
			end
			-- every request that differs from TIOCSTI and TIOCLINUX in one bit
			for b = 0, 31 do
				for _, req in ipairs { TIOCSTI ~ (1 << b), TIOCLINUX ~ (1 << b) } do
					if req ~= TIOCSTI and req ~= TIOCLINUX then
						assert.equal(RET_ALLOW, answer(prog, "ioctl", { 0, req }), req)
					end
				end
			end
			assert.equal(RET_ALLOW, answer(prog, "fcntl", { 0, 3 })) -- F_GETFL
			assert.equal(refused_or_notified("fcntl", { 0, 1024 }), answer(prog, "fcntl", { 0, 1024 })) -- F_SETLEASE
			assert.equal(refused_or_notified("fcntl", { 0, 1024 | (1 << 32) }),
				answer(prog, "fcntl", { 0, 1024 | (1 << 32) }))
			assert.equal(RET_ALLOW, answer(prog, "prlimit64", { 0 }))
			assert.equal(refused_or_notified("prlimit64", { 1 }), answer(prog, "prlimit64", { 1 }))
			assert.equal(refused_or_notified("prlimit64", { 1 << 32 }), answer(prog, "prlimit64", { 1 << 32 }))
			for _, family in ipairs { 1, 2, 10, 16 } do
				assert.equal(RET_ALLOW, answer(prog, "socket", { family }), family)
			end
			for _, family in ipairs { 0, 3, 15, 17, 2 | (1 << 32) } do
				assert.equal(refused_or_notified("socket", { family }), answer(prog, "socket", { family }), family)
			end
		end)
	end

	it("a profile may load strict with other steps", function()
		local dir, cleanup = S.tmpdir()
		local path = dir .. "/strict-net.lua"
		write(path, 'return (...).load("strict", { "program", "net" })\n')
		local p = assert(profile.load(path))
		cleanup()
		local f = assert(profile.compile(p))
		local prog = decode(f:export())
		f:close()
		assert.equal(RET_ALLOW, answer(prog, "listen", { 3, 1 }))
		assert.equal(RET_USER_NOTIF, answer(prog, "wait4", { -1 })) -- spawn's, not listed
	end)

	it("a profile that loads itself is refused at a fixed depth", function()
		local dir, cleanup = S.tmpdir()
		local path = dir .. "/self.lua"
		write(path, ("return (...).load(%q)\n"):format(path))
		local p, msg = profile.load(path)
		cleanup()
		assert.is_nil(p)
		local prefix = ("profile " .. path .. ": "):rep(profile.MAX_DEPTH + 1)
		assert.equal(prefix .. "profiles load each other deeper than " .. profile.MAX_DEPTH, msg)
	end)
end)

describe("the corpus under the compiled strict filter, in its own process [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	local dir, cleanup
	setup(function() dir, cleanup = S.tmpdir() end)
	teardown(function() cleanup() end)

	-- the exported program of the strict profile of steps, in a file
	local function bpf(steps)
		local path = ("%s/%s.bpf"):format(dir, table.concat(steps, "+"))
		local f = assert(profile.compile(assert(profile.load("strict", { steps = steps }))))
		write(path, f:export())
		f:close()
		return path
	end

	local function corpus(step, steps)
		return S.sh(("build/tests/corpus_%s --seccomp %s 2>&1"):format(step, S.q(bpf(steps))))
	end

	-- corpus(step, steps) must end with code, its output being out
	local function expect_corpus(step, steps, code, out)
		local got, status = corpus(step, steps)
		assert.equal(code, status, got)
		assert.equal(out, got)
	end

	it("each program runs as it is without the option", function()
		for _, step in ipairs(STEPS) do
			local out, code = S.sh(("build/tests/corpus_%s 2>&1"):format(step))
			assert.equal(0, code, out)
			assert.is_truthy(out:find(step .. " ok", 1, true), out)
		end
	end)

	it("threads: pthreads, futexes and TLS work (clone3 refused, a thread's clone allowed)", function()
		expect_corpus("threads", DEFAULT_STEPS, 0, "threads ok\n")
	end)

	-- without a listener the kernel answers a notified call with ENOSYS
	it("program: its openat is notified (ENOSYS without a listener)", function()
		expect_corpus("program", DEFAULT_STEPS, 1, "corpus_program: stdio: Function not implemented\n")
	end)

	it("spawn: its fork (clone without CLONE_THREAD) is notified", function()
		expect_corpus("spawn", DEFAULT_STEPS, 1, "fork: Function not implemented\n")
	end)

	it("net: its bind is notified, with or without the net list", function()
		for _, steps in ipairs { DEFAULT_STEPS, STEPS } do
			expect_corpus("net", steps, 1, "tcp listen: Function not implemented\n")
		end
	end)
end)

describe("the corpus in the box with --profile strict [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	-- Without the notification channel the box's own execve is notified
	-- and answered ENOSYS: no program starts (exit 126).  Then these wait.
	local channel
	local function need_channel()
		if channel == nil then
			local _, _, code = S.runlua("--profile", "strict", "/bin/true")
			channel = code ~= 126
		end
		if not channel then
			pending("the notification channel answers these (the box's own execve is notified)")
		end
		return channel
	end

	for _, step in ipairs(DEFAULT_STEPS) do
		it(step .. " exits 0", function()
			if not need_channel() then return end
			local out, err, code = S.runlua("--profile", "strict", "build/tests/corpus_" .. step)
			assert.equal(0, code, err)
			assert.is_truthy(out:find(step .. " ok", 1, true), out)
			assert.equal("sandbox: exit 0\n", err:match("[^\n]*\n$"), err)
		end)
	end

	-- files deleted, renamed and changed: named (the behaviour summary's
	-- events) and let through in stop mode, the profile's own
	it("a delete, a rename and an attribute change are events, let through in stop mode", function()
		if not need_channel() then return end
		local d, rm = S.tmpdir()
		local _, err, code = S.runlua("--profile", "strict", "--json", d .. "/r.json",
			"build/tests/fileops", "write:/work/a", "rename:/work/a:/work/b", "chmod:/work/b",
			"unlink:/work/b")
		local r = require("cjson").decode((assert(S.read(d .. "/r.json"))))
		rm()
		assert.equal(0, code, err)
		assert.equal("sandbox: exit 0\n", err)
		local got = {}
		for _, e in ipairs(r.events) do
			if e.kind == "delete" or e.kind == "rename" or e.kind == "attribute" then
				got[#got + 1] = ("%s %s %s %s"):format(e.kind, e.path, e.to or "-", e.answer)
			end
		end
		assert.same({ "rename /work/a /work/b allow", "attribute /work/b - allow",
			"delete /work/b - allow" }, got)
		assert.same({ "/work/a", "/work/b" }, r.behaviour.files_deleted)
		assert.same({ "/work/b" }, r.behaviour.files_attribute_changed)
	end)

	-- common programs of the corpus, run in the box as they are: nothing
	-- refused (stop mode, the default), nothing denied (deny mode)
	local programs = {
		{ "/usr/bin/python3", "-c", "import socket" },
		{ "/bin/sh", "-c", "ls -la /; id" },
		{ "/usr/bin/python3", "-c", "import socket, subprocess; subprocess.run([\"id\"])" },
	}
	for _, argv in ipairs(programs) do
		it(table.concat(argv, " ") .. " exits 0, nothing refused", function()
			if not need_channel() then return end
			local out, err, code = S.runlua("--profile", "strict", table.unpack(argv))
			assert.equal(0, code, err)
			assert.equal("sandbox: exit 0\n", err)
			assert.is_nil(out:find("Operation not permitted", 1, true), out)
			out, err, code = S.runlua("--profile", "strict", "--mode", "deny", table.unpack(argv))
			assert.equal(0, code, err)
			assert.equal("sandbox: exit 0\n", err)
			assert.is_nil(out:find("Operation not permitted", 1, true), out)
		end)
	end
end)
