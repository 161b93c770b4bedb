-- SPDX-License-Identifier: MIT
-- The explain channel: notified calls named, answered in the three modes,
-- the events in the result, the Lua rule.  Hostile programs in
-- tests/progs/hostile.c; the profile is tests/profiles/notify.lua.
-- scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"
local sbx = require "sbx"
local profile = require "sbx.profile"
local cjson = require "cjson"

local PROFILE = "tests/profiles/notify.lua"
local HOSTILE = "build/tests/hostile"

local function run(...) return S.runlua("--profile", PROFILE, ...) end

-- A box of the minimal tree running argv under the test profile.
local function spec(argv, extra)
	local prof = assert(profile.load(PROFILE))
	local mode, ntable = profile.notify(prof)
	local s = {
		root = {},
		mounts = sbx.minimal_mounts(),
		argv = argv,
		env = { PATH = "/usr/bin:/bin" },
		cwd = "/tmp",
		wall = 30,
		filter = assert(profile.compile(prof)),
		mode = mode,
		notify = ntable,
	}
	for k, v in pairs(extra or {}) do s[k] = v end
	if s.notify == false then s.notify = nil end
	return s
end

describe("the explain channel [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	describe("stop: the first refusal ends the box, named", function()
		local cases = {
			{ "shadow", "open /etc/shadow" },
			{ "socket", "syscall 41 (socket)" },
			{ "connect", "connect 127.0.0.1:4444" },
			{ "clone", "clone with namespace flags" },
			{ "mmap", "mmap 536870912 bytes over the cap (67108864)" },
		}
		for _, c in ipairs(cases) do
			it(c[1], function()
				local out, err, code = run(HOSTILE, c[1])
				-- the refused call never returned: the program printed nothing
				assert.are.equal("", out)
				assert.are.equal("sandbox: refused: " .. c[2] .. "\n", err)
				assert.are.equal(125, code)
			end)
		end
	end)

	describe("deny: every refusal fails the call and is named", function()
		local expect_out = table.concat({
			"open: Permission denied",
			"socket: Operation not permitted",
			"connect: Connection refused",
			"clone: Operation not permitted",
			"mmap: Cannot allocate memory",
			"ptrace: Operation not permitted",
		}, "\n") .. "\n"
		local expect_err = table.concat({
			"sandbox: denied: open /etc/shadow (EACCES)",
			"sandbox: denied: syscall 41 (socket) (EPERM)",
			"sandbox: denied: connect 127.0.0.1:4444 (ECONNREFUSED)",
			"sandbox: denied: clone with namespace flags (EPERM)",
			"sandbox: denied: mmap 536870912 bytes over the cap (67108864) (ENOMEM)",
			"sandbox: denied: syscall 101 (ptrace) (EPERM)",
			"sandbox: exit 0",
		}, "\n") .. "\n"

		it("a program trying six forbidden things goes on and exits 0", function()
			local out, err, code = run("--mode", "deny", HOSTILE, "all")
			assert.are.equal(expect_out, out)
			assert.are.equal(expect_err, err)
			assert.are.equal(0, code)
		end)

		it("50 runs give byte-identical reports", function()
			for i = 1, 50 do
				local out, err, code = run("--mode", "deny", HOSTILE, "all")
				assert.are.equal(expect_err, err, "run " .. i)
				assert.are.equal(expect_out, out, "run " .. i)
				assert.are.equal(0, code)
			end
		end)

		it("the JSON carries every event in order, with the schema", function()
			local d = S.tmpdir()
			local _, err, code = run("--mode", "deny", "--json", d .. "/r.json", HOSTILE, "all")
			assert.are.equal(0, code, err)
			local text = S.read(d .. "/r.json")
			assert.is_string(text)
			local r = cjson.decode(text)
			os.execute("rm -rf " .. S.q(d))
			local ev = r.events
			assert.are.equal("exec", ev[1].kind)
			assert.are.equal("allow", ev[1].answer)
			assert.are.equal("execve", ev[1].syscall)
			assert.are.equal("/work/hostile", ev[1].path)
			assert.are.same({ "/work/hostile", "all" }, ev[1].argv)
			assert.are.equal(2, ev[1].pid)
			local refused = {}
			for _, e in ipairs(ev) do
				if e.answer == "deny" then refused[#refused + 1] = e end
			end
			assert.are.equal(6, #refused)
			assert.are.same({ "open", "syscall", "connect", "clone", "mmap", "ptrace" },
				{ refused[1].kind, refused[2].kind, refused[3].kind, refused[4].kind,
					refused[5].kind, refused[6].kind })
			assert.are.equal("/etc/shadow", refused[1].path)
			assert.are.equal("EACCES", refused[1].errno)
			assert.are.equal("socket", refused[2].syscall)
			assert.are.equal("127.0.0.1:4444", refused[3].addr)
			assert.are.equal("inet", refused[3].family)
			assert.is_true(refused[4].namespaces)
			assert.are.equal(536870912, refused[5].size)
			assert.are.equal("exit", ev[#ev].kind)
		end)
	end)

	describe("log: calls are let through and recorded", function()
		it("the opens and execs of python3 -c 'import json' are those strace -f sees", function()
			local d = S.tmpdir()
			local _, err, code = run("--mode", "log", "--json", d .. "/r.json",
				"/usr/bin/python3", "-c", "import json")
			assert.are.equal(0, code, err)
			assert.are.equal("sandbox: exit 0\n", err)
			local text = S.read(d .. "/r.json")
			assert.is_string(text)
			local r = cjson.decode(text)
			-- in the box's environment (without HOME, python3 reads
			-- /etc/passwd for it)
			local _, scode = S.sh(("cd %s && env -i HOME=\"$PWD\" PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 "
				.. "LOGNAME=dana USER=dana strace -f -qq -e trace=open,openat,openat2,execve,execveat "
				.. "-o %s/st.txt /usr/bin/python3 -c 'import json' >/dev/null 2>&1"):format(S.q(d), S.q(d)))
			assert.are.equal(0, scode)
			local traced = {}
			for l in io.lines(d .. "/st.txt") do
				local call, path = l:match("(%w+)%(AT_FDCWD, \"([^\"]*)\"")
				if not call then call, path = l:match("(%w+)%(\"([^\"]*)\"") end
				-- the cwd differs (the box's /work), the program's path is
				-- the box's own; sitecustomize.py is a link into
				-- /etc/python3.11, which the box does not bind
				if call and call ~= "execve" and path ~= d and not path:find("sitecustomize") then
					traced[#traced + 1] = path
				end
			end
			os.execute("rm -rf " .. S.q(d))
			local seen = {}
			for _, e in ipairs(r.events) do
				if e.kind == "open" and e.path ~= "/work" and not e.path:find("sitecustomize") then
					for _ = 1, e.count or 1 do seen[#seen + 1] = e.path end
				end
				if e.kind == "exec" then
					assert.are.same({ "/usr/bin/python3", "-c", "import json" }, e.argv)
				end
			end
			assert.is_true(#traced > 20)
			assert.are.same(traced, seen)
		end)
	end)

	describe("the notification race", function()
		for _, mode in ipairs { "deny", "log" } do
			it("threads rewriting a path cannot open a forbidden file (" .. mode .. ")", function()
				local out, err, code = run("--mode", mode, HOSTILE, "race")
				assert.are.equal("race: 0 forbidden opens\n", out)
				assert.are.equal(0, code, err)
			end)
		end
	end)

	describe("Lua rules", function()
		it("a rule answers before the table", function()
			local seen = {}
			local r = assert(sbx.run(spec({ "/bin/sh", "-c", "cat /usr/lib/os-release >/dev/null; echo $?" }, {
				mode = "deny",
				rule = function(ev)
					seen[#seen + 1] = ev.kind .. " " .. (ev.path or "")
					if ev.kind == "open" and ev.path == "/usr/lib/os-release" then return "deny" end
					return nil
				end,
				stdout = "capture",
			})))
			assert.are.equal("exit", r.outcome)
			assert.are.equal("1\n", r.stdout)
			local denied
			for _, e in ipairs(r.events) do
				if e.answer == "deny" then denied = e end
			end
			assert.are.equal("/usr/lib/os-release", denied.path)
			assert.are.equal("EACCES", denied.errno)
			assert.are.equal("exec /bin/sh", seen[1])
		end)

		it("a rule that raises stops the box and is reported", function()
			local r = assert(sbx.run(spec({ "/bin/sh", "-c", "cat /usr/lib/os-release" }, {
				mode = "log",
				rule = function(ev)
					if ev.kind == "open" and ev.path == "/usr/lib/os-release" then error("no such rule", 0) end
				end,
			})))
			assert.are.equal("refused", r.outcome)
			assert.are.equal("no such rule", r.rule_error)
			assert.are.equal("/usr/lib/os-release", r.refused.path)
		end)

		it("a rule must be a function, the mode a known word", function()
			assert.has_error(function() sbx.run(spec({ "/bin/true" }, { rule = 1 })) end)
			assert.has_error(function() sbx.run(spec({ "/bin/true" }, { mode = "later" })) end)
			assert.has_error(function() sbx.run(spec({ "/bin/true" }, { notify = { opne = {} } })) end)
		end)
	end)

	describe("the default box", function()
		it("names its refusals with the errno a program always got (deny, run.lua's default)", function()
			local out, err, code = S.runlua(HOSTILE, "ptrace")
			assert.are.equal("ptrace: Operation not permitted\n", out)
			assert.are.equal("sandbox: denied: syscall 101 (ptrace) (EPERM)\nsandbox: exit 0\n", err)
			assert.are.equal(0, code)
		end)

		it("ends the box at the first refusal with --mode stop", function()
			local out, err, code = S.runlua("--mode", "stop", HOSTILE, "ptrace")
			assert.are.equal("", out)
			assert.are.equal("sandbox: refused: syscall 101 (ptrace)\n", err)
			assert.are.equal(125, code)
		end)

		it("leaves the ENOSYS answers unnamed: programs fall back (clone3 for posix_spawn)", function()
			local out, err, code = S.runlua("/usr/bin/python3", "-c",
				"import subprocess; print(subprocess.run(['/bin/true']).returncode)")
			assert.are.equal("0\n", out)
			assert.are.equal("sandbox: exit 0\n", err)
			assert.are.equal(0, code)
		end)

		it("refuses an unknown mode", function()
			local _, err, code = S.runlua("--mode", "later", "/bin/true")
			assert.are.equal("sbxlua: --mode later: expected stop, deny or log\n", err)
			assert.are.equal(126, code)
		end)
	end)

	describe("profiles", function()
		local core = require "sbx.core"
		local named = { default = "allow", rules = {
			{ call = "ptrace", action = { errno = "EPERM", notify = true } },
		} }

		it("a refusal that is also named keeps its errno in every mode; the rest costs nothing", function()
			for _, mode in ipairs { "deny", "log" } do
				local r = assert(sbx.run(spec({ "/work/hostile", "ptrace" }, {
					filter = assert(core.filter(named)), notify = false, mode = mode, stdout = "capture",
					mounts = (function()
						local m = sbx.minimal_mounts()
						m[#m + 1] = { type = "tmpfs", dst = "/work" }
						m[#m + 1] = { type = "bind", src = S.sh("pwd"):gsub("\n", "") .. "/" .. HOSTILE,
							dst = "/work/hostile" }
						return m
					end)(),
				})))
				assert.are.equal("exit", r.outcome, mode)
				assert.are.equal("ptrace: Operation not permitted\n", r.stdout)
				-- the hand-over's execve is not an event: the profile does
				-- not notify execve
				assert.are.equal(1, #r.events, mode)
				assert.are.equal("ptrace", r.events[1].kind)
				assert.are.equal("deny", r.events[1].answer)
				assert.are.equal("EPERM", r.events[1].errno)
				assert.are.equal(2, r.notified)
			end
		end)

		it("takes {errno =, notify = true} in rules only", function()
			assert.has_error(function()
				core.filter { default = { errno = "EPERM", notify = true } }
			end, "bad argument #1 to 'filter' (default: 'notify' only in a rule's action)")
			assert.has_error(function()
				core.filter { default = "allow", rules = { { call = "ptrace", action = { errno = 0, notify = true } } } }
			end, "bad argument #1 to 'filter' (rules[1].action: 'notify' needs a nonzero errno)")
		end)
	end)

	describe("budgets: notify.tasks and notify.execs", function()
		it("a fork bomb stops at the process limit, 200 runs byte-identical", function()
			for i = 1, 200 do
				local out, err, code = run(HOSTILE, "forkbomb")
				assert.are.equal("", out, "run " .. i)
				assert.are.equal("sandbox: refused: process limit (16)\n", err, "run " .. i)
				assert.are.equal(125, code, "run " .. i)
			end
		end)

		it("deny: the 17th creation fails with EAGAIN, named", function()
			local out, err, code = run("--mode", "deny", HOSTILE, "forks")
			assert.are.equal("fork 17: Resource temporarily unavailable\n", out)
			assert.are.equal("sandbox: denied: process limit (16) (EAGAIN)\nsandbox: exit 0\n", err)
			assert.are.equal(0, code)
		end)

		it("log: the budget holds too, the event carries it", function()
			local d = S.tmpdir()
			local out, err, code = run("--mode", "log", "--json", d .. "/r.json", HOSTILE, "forks")
			local r = cjson.decode((assert(S.read(d .. "/r.json"))))
			os.execute("rm -rf " .. S.q(d))
			assert.are.equal("fork 17: Resource temporarily unavailable\n", out)
			assert.are.equal(0, code, err)
			local last
			for _, e in ipairs(r.events) do
				if e.kind == "clone" then last = e end
			end
			assert.are.equal("deny", last.answer)
			assert.are.equal(16, last.limit)
			assert.are.equal("EAGAIN", last.errno)
		end)

		it("stop: an execve past the exec limit is refused by name", function()
			local out, err, code = run(HOSTILE, "execs")
			assert.are.equal("", out)
			assert.are.equal("sandbox: refused: exec limit (8)\n", err)
			assert.are.equal(125, code)
		end)

		it("deny: the 9th exec after the program's own fails with EAGAIN", function()
			local out, err, code = run("--mode", "deny", HOSTILE, "execs")
			assert.are.equal("exec 9: Resource temporarily unavailable\n", out)
			assert.are.equal("sandbox: denied: exec limit (8) (EAGAIN)\nsandbox: exit 0\n", err)
			assert.are.equal(0, code)
		end)
	end)

	describe("a fileless exec (memfd_create, execveat AT_EMPTY_PATH)", function()
		it("is an exec event under a profile that allows memfd_create", function()
			local d = S.tmpdir()
			local out, err, code = run("--mode", "log", "--json", d .. "/r.json", HOSTILE, "memfd")
			local r = cjson.decode((assert(S.read(d .. "/r.json"))))
			os.execute("rm -rf " .. S.q(d))
			assert.are.equal("done\n", out)
			assert.are.equal("sandbox: exit 0\n", err)
			assert.are.equal(0, code)
			local execs = {}
			for _, e in ipairs(r.events) do
				if e.kind == "exec" then execs[#execs + 1] = e end
			end
			assert.are.equal(2, #execs)
			assert.are.equal("execveat", execs[2].syscall)
			assert.are.equal("/memfd:x (deleted)", execs[2].path)
			assert.are.same({ "hostile", "done" }, execs[2].argv)
			assert.are.equal("allow", execs[2].answer)
		end)

		it("the default profile lets memfd_create through in every mode, as a host does", function()
			-- a memfd exec runs code the jail already lets the program run
			-- (docs/seccomp.md): the supervisor makes the memfd and counts it
			for _, mode in ipairs { "deny", "stop" } do
				local out, err, code = S.runlua("--mode", mode, HOSTILE, "memfd")
				assert.are.same({ "done\n", "sandbox: exit 0\n", 0 }, { out, err, code }, mode)
			end
		end)
	end)

	describe("deletes, renames and attribute changes (tests/profiles/notify-files.lua)", function()
		local FILES = "tests/profiles/notify-files.lua"
		local FILEOPS = "build/tests/fileops"
		local SETUP = { "mkdir:/work/ok", "mkdir:/work/no", "write:/work/ok/a", "write:/work/no/x" }
		local OPS = { "rename:/work/ok/a:/work/ok/b", "renameat2:/work/ok/b:/work/no/c",
			"unlink:/work/no/x", "chmod:/work/no/x", "fchmod:/work/no/x", "fchmodat2:/work/ok/b",
			"chown:/work/ok/b", "fchown:/work/ok/b", "utimensat:/work/no/x", "futimens:/work/ok/b",
			"setxattr:/work/no/x", "fsetxattr:/work/ok/b", "unlinkat-dir:no", "unlink:/work/ok/b",
			"rmdir:/work/ok" }
		local function files(ops, ...)
			local argv = { "--profile", FILES, ... }
			argv[#argv + 1] = FILEOPS
			for _, a in ipairs(SETUP) do argv[#argv + 1] = a end
			for _, a in ipairs(ops) do argv[#argv + 1] = a end
			return S.runlua(table.unpack(argv))
		end

		it("deny: a path outside notify.open is refused, named, with EACCES or EPERM", function()
			local out, err, code = files(OPS, "--mode", "deny")
			assert.are.equal(table.concat({ "mkdir: ok", "mkdir: ok", "write: ok", "write: ok",
				"rename: ok", "renameat2: Permission denied", "unlink: Permission denied",
				"chmod: Operation not permitted", "fchmod: Operation not permitted", "fchmodat2: ok",
				"chown: ok", "fchown: ok", "utimensat: Operation not permitted", "futimens: ok",
				"setxattr: Operation not permitted", "fsetxattr: ok",
				"unlinkat-dir: Permission denied", "unlink: ok", "rmdir: ok" }, "\n") .. "\n", out)
			assert.are.equal(table.concat({
				"sandbox: denied: rename /work/ok/b to /work/no/c (EACCES)",
				"sandbox: denied: delete /work/no/x (EACCES)",
				"sandbox: denied: attribute /work/no/x (chmod) (EPERM)",
				"sandbox: denied: attribute /work/no/x (fchmod) (EPERM)",
				"sandbox: denied: attribute /work/no/x (utimensat) (EPERM)",
				"sandbox: denied: attribute /work/no/x (setxattr) (EPERM)",
				"sandbox: denied: delete /work/no (EACCES)",
				"sandbox: exit 0" }, "\n") .. "\n", err)
			assert.are.equal(0, code)
		end)

		it("notify.change, where given, is the changes' list instead of open's", function()
			local d, rm = S.tmpdir()
			local text = S.read(FILES):gsub("open = {", "open = { \"/nowhere\" }, change = {")
			S.write(d .. "/p.lua", text)
			local out, err, code = S.runlua("--profile", d .. "/p.lua", "--mode", "deny", FILEOPS,
				"write:/work/a", "mkdir:/work/ok", "write:/work/ok/b", "unlink:/work/a", "unlink:/work/ok/b")
			rm()
			assert.are.same({ "write: ok\nmkdir: ok\nwrite: ok\nunlink: Permission denied\nunlink: ok\n",
				"sandbox: denied: delete /work/a (EACCES)\nsandbox: exit 0\n", 0 }, { out, err, code })
		end)

		it("notify.change must be a list of absolute paths", function()
			local function err_of(change)
				local ok, msg = pcall(sbx.run, spec({ "/bin/true" }, { notify = { change = change } }))
				assert.is_false(ok)
				return msg
			end
			assert.truthy(err_of({ "work" }):find("field 'notify.change': 'work' is not an absolute path", 1, true))
			assert.truthy(err_of("/work"):find("field 'notify.change' must be a list of strings", 1, true))
			assert.truthy(err_of({ 1 }):find("field 'notify.change' must be a list of strings", 1, true))
		end)

		it("notify.keep must be a list of absolute paths", function()
			local function err_of(keep)
				local ok, msg = pcall(sbx.run, spec({ "/bin/true" }, { notify = { keep = keep } }))
				assert.is_false(ok)
				return msg
			end
			assert.truthy(err_of({ "etc/shadow" }):find("field 'notify.keep': 'etc/shadow' is not an absolute path",
				1, true))
			assert.truthy(err_of("/etc"):find("field 'notify.keep' must be a list of strings", 1, true))
			assert.truthy(err_of({ {} }):find("field 'notify.keep' must be a list of strings", 1, true))
		end)

		it("stop: the first refusal ends the box, named", function()
			local out, err, code = files(OPS, "--mode", "stop")
			assert.are.equal("sandbox: refused: rename /work/ok/b to /work/no/c\n", err)
			assert.truthy(out:find("\nrename: ok\n$"), out)
			assert.are.equal(125, code)
		end)

		it("log: every call let through and recorded, with the schema", function()
			local d, rm = S.tmpdir()
			local out, err, code = files({ "fchmod:/work/ok/a", "fchown:/work/ok/a", "futimens:/work/ok/a",
				"fsetxattr:/work/ok/a", "rename:/work/ok/a:/work/ok/b", "renameat2:/work/ok/b:/work/no/c",
				"unlink:/work/no/c", "unlink:/work/no/x", "unlinkat-dir:no" }, "--mode", "log", "--json", d .. "/r.json")
			local r = cjson.decode((assert(S.read(d .. "/r.json"))))
			rm()
			assert.are.equal("sandbox: exit 0\n", err)
			assert.are.equal(0, code)
			assert.are.equal("\nunlinkat-dir: ok\n", out:sub(-18), out)
			local got = {}
			for _, e in ipairs(r.events) do
				if e.syscall and e.kind ~= "exec" then
					assert.are.equal("allow", e.answer)
					got[#got + 1] = table.concat({ e.kind, e.syscall, e.path, e.to or "-",
						e.flags and ("%d"):format(e.flags) or "-" }, " ")
				end
			end
			assert.are.same({
				-- the f* variants: the descriptor's link, read from outside
				"attribute fchmod /work/ok/a - -",
				"attribute fchown /work/ok/a - -",
				-- futimens is utimensat(fd, NULL, ...)
				"attribute utimensat /work/ok/a - -",
				"attribute fsetxattr /work/ok/a - -",
				"rename rename /work/ok/a /work/ok/b -",
				-- RENAME_NOREPLACE; log mode lets the refused name through
				"rename renameat2 /work/ok/b /work/no/c 1",
				"delete unlink /work/no/c - -",
				"delete unlink /work/no/x - -",
				-- AT_REMOVEDIR, the name against the directory descriptor
				"delete unlinkat /work/no - 512",
			}, got)
		end)
	end)
end)
