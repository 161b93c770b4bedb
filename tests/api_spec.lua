-- SPDX-License-Identifier: MIT
-- The facade's safe defaults and the small things of the API people trip
-- on: a box without a tree or host ids, argv[0], run_many's errors per
-- spec, the REPL's printing, messages, the JSON's verified states, and a
-- root caller's --rw directory its box cannot write.
-- scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"
local sbx = require "sbx"
local core = require "sbx.core"
local stdbox = require "sbx.stdbox"
local report = require "sbx.report"
local cjson = require "cjson"

local root = S.euid() == 0
local ID = stdbox.root_host_id

-- a shell line that prints the file system type of the box's root
local ROOT_FS = "sed -n 's/^[0-9]* [0-9]* [^ ]* [^ ]* \\/ .* - \\([^ ]*\\) .*/\\1/p' /proc/self/mountinfo"

-- the box's uid_map line: inside, outside, count
local function uid_map(stdout)
	return stdout:match("^%s*(%d+)%s+(%d+)%s+(%d+)")
end

describe("api [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	describe("safe defaults of sbx.run and sbx.box", function()
		it("a spec without a tree runs in the minimal tree, as the unprivileged host id", function()
			local spec = { argv = { "/bin/sh", "-c", "cat /proc/self/uid_map; ls /; "
				.. "cat /etc/hostname || echo no-etc; " .. ROOT_FS } }
			local r = assert(sbx.run(spec))
			assert.are.equal("exit", r.outcome, r.stderr)
			assert.is_nil(r.unsafe)
			local inside, outside = uid_map(r.stdout)
			assert.are.equal("1000", inside)
			-- a root caller's box never runs as the host's root
			assert.are.equal(tostring(root and ID or S.euid()), outside)
			local l = S.matches(r.stdout, "[^\n]+")
			assert.are.same({ "bin", "dev", "lib", "lib64", "proc", "sbin", "tmp", "usr" },
				{ table.unpack(l, 2, 9) })
			-- nothing of the host's /etc
			assert.are.equal("no-etc", l[10])
			assert.are.equal("tmpfs", l[11])
			assert.matches("No such file or directory", r.stderr)
			-- the caller's table is left as it was
			assert.is_nil(spec.root)
			assert.is_nil(spec.mounts)
			assert.is_nil(spec.host_uid)
		end)

		it("a spec's own mounts without a root get a tmpfs root", function()
			local mounts = sbx.minimal_mounts()
			mounts[#mounts + 1] = { type = "tmpfs", dst = "/extra", size = 1 << 20 }
			local r = assert(sbx.run { argv = { "/bin/sh", "-c", "ls /; " .. ROOT_FS },
				mounts = mounts })
			assert.are.equal("exit", r.outcome, r.stderr)
			assert.are.equal("bin\ndev\nextra\nlib\nlib64\nproc\nsbin\ntmp\nusr\ntmpfs\n", r.stdout)
		end)

		it("root = \"host\" runs on the host's tree and the result says so", function()
			local host = S.read("/proc/sys/kernel/hostname")
			local r = assert(sbx.run { root = "host", argv = { "/bin/cat", "/proc/sys/kernel/hostname",
				"/proc/self/uid_map" }, namespaces = { "user", "mount", "pid", "ipc", "net", "cgroup" } })
			assert.are.equal("exit", r.outcome, r.stderr)
			assert.are.equal(host, r.stdout:sub(1, #host))
			assert.are.same({ "root=host" }, r.unsafe)
			-- still the unprivileged host id
			local inside, outside = uid_map(r.stdout:sub(#host + 1))
			assert.are.equal("1000", inside)
			assert.are.equal(tostring(root and ID or S.euid()), outside)
		end)

		it("host_uid = 0 is a root caller's explicit choice, recorded", function()
			if not root then
				assert.has_error(function() sbx.run { argv = { "/bin/true" }, host_uid = 0, host_gid = 0 } end,
					"bad argument #1 to 'box' (host_uid/host_gid other than the caller's need root)")
				return
			end
			local r = assert(sbx.run { argv = { "/bin/cat", "/proc/self/uid_map" }, host_uid = 0, host_gid = 0 })
			assert.are.equal("exit", r.outcome, r.stderr)
			assert.are.same({ "1000", "0", "1" }, { uid_map(r.stdout) })
			assert.are.same({ "host_uid=0", "host_gid=0" }, r.unsafe)
			-- another id a root caller names is taken as it is, and is no
			-- unsafe choice
			r = assert(sbx.run { argv = { "/bin/cat", "/proc/self/uid_map", "/proc/self/gid_map" }, host_uid = 65534 })
			assert.are.same({ "1000", "65534", "1" }, { uid_map(r.stdout) })
			-- one id named stands for both: never the caller's gid 0
			assert.are.same({ "1000", "65534", "1" }, { uid_map(r.stdout:match("\n(.*)")) })
			assert.is_nil(r.unsafe)
			r = assert(sbx.run { argv = { "/bin/cat", "/proc/self/gid_map" }, host_uid = 0 })
			assert.are.same({ "1000", "0", "1" }, { uid_map(r.stdout) })
			assert.are.same({ "host_uid=0", "host_gid=0" }, r.unsafe)
		end)

		it("the other explicit weakenings are recorded too", function()
			local b <close> = assert(sbx.box { argv = { "/bin/true" }, root = "host",
				namespaces = { "user", "mount", "pid" }, drop_caps = false, no_new_privs = false })
			assert.are.same({ "root=host", "drop_caps=false", "no_new_privs=false" }, b.unsafe)
			assert.are.equal("sbx.box (/bin/true, 0 mounts)", tostring(b))
			local r = assert(b:run())
			assert.are.equal("exit", r.outcome)
			assert.are.same({ "root=host", "drop_caps=false", "no_new_privs=false" }, r.unsafe)
			-- each result has a list of its own
			assert.are_not.equal(b.unsafe, r.unsafe)
		end)

		it("refuses what it cannot make safe, with the way out in the message", function()
			assert.has_error(function() sbx.run { argv = { "/bin/true" }, root = "x" } end,
				"bad argument #1 to 'run' (field 'root' must be a table or \"host\")")
			assert.has_error(function() sbx.box { argv = { "/bin/true" }, namespaces = { "user", "pid" } } end,
				"bad argument #1 to 'box' (the default tree needs the mount namespace"
				.. " (root = \"host\" runs on the host's tree))")
			assert.has_error(function() sbx.run "x" end, "bad argument #1 to 'run' (table expected, got string)")
			if root then
				assert.has_error(function()
					sbx.run { argv = { "/bin/true" }, root = "host", namespaces = { "mount", "pid" } }
				end, "bad argument #1 to 'run' (without the user namespace a root caller's box runs as"
					.. " host uid 0 (add \"user\", or name host_uid = 0))")
			end
		end)

		it("a failed working directory is named in the result and the report", function()
			local r = assert(sbx.run { argv = { "/bin/true" }, cwd = "/nonexistent" })
			assert.are.equal("cannot", r.outcome)
			assert.are.same({ stage = "enter working directory", errno = sbx.errno.ENOENT,
				errname = "ENOENT", path = "/nonexistent" }, r.cannot)
			local _, err, code = S.runlua("--cwd", "/nonexistent", "/bin/true")
			assert.are.equal(126, code)
			assert.are.equal("sandbox: cannot enter working directory /nonexistent: ENOENT\n", err)
		end)

		it("sbx.stdbox.build loads the default profile unless filter = false", function()
			local spec, info = assert(stdbox.build { prog = "/bin/true" })
			assert.are.equal("sbx.filter", getmetatable(spec.filter).__name)
			assert.are.equal("default", info.profile)
			assert.is_true(info.seccomp)
			spec, info = assert(stdbox.build { prog = "/bin/true", filter = false })
			assert.is_nil(spec.filter)
			assert.are.equal("none", info.profile)
			assert.is_false(info.seccomp)
			spec.stdout, spec.stderr = "capture", "capture"
			spec.argv = { "/bin/sh", "-c", "grep Seccomp: /proc/self/status" }
			spec.path = "/bin/sh"
			local r = assert(sbx.run(spec))
			assert.matches("Seccomp:%s+0\n", r.stdout)
			spec = assert(stdbox.build { prog = "/bin/sh", args = { "-c", "grep Seccomp: /proc/self/status" },
				stdout = "capture", stderr = "capture" })
			r = assert(sbx.run(spec))
			assert.matches("Seccomp:%s+2\n", r.stdout)
			local ok, msg = stdbox.build { prog = "/bin/true", profile = "no-such-profile" }
			assert.is_nil(ok)
			assert.matches("^profile no%-such%-profile: cannot ", msg)
		end)
	end)

	describe("argv[0]", function()
		-- the command line the box's shell sees, NUL-separated
		local script = "tr '\\0' ' ' </proc/$$/cmdline"

		it("is the path the box sees for a program bound from the host", function()
			local d, rm = S.tmpdir()
			os.execute("chmod 755 " .. S.q(d) .. " && cp /bin/sh " .. S.q(d .. "/sus"))
			local out, err, code = S.runlua(d .. "/sus", "-c", script)
			-- typed relative to the current directory
			local bin = S.bin:sub(1, 1) == "/" and S.bin or S.sh("pwd"):gsub("\n$", "") .. "/" .. S.bin
			local rout, rcode = S.sh("cd " .. S.q(d) .. " && " .. S.q(bin) .. " run.lua ./sus -c "
				.. S.q(script) .. " 2>&1 </dev/null")
			rm()
			assert.are.equal(0, code, err)
			assert.are.equal("/work/sus -c " .. script .. " ", out)
			assert.are.equal(0, rcode, rout)
			assert.are.equal("/work/sus -c " .. script .. " sandbox: exit 0\n", rout)
		end)

		it("is the name as typed when it means the same file inside", function()
			local out, err, code = S.runlua("sh", "-c", script)
			assert.are.equal(0, code, err)
			assert.are.equal("sh -c " .. script .. " ", out)
			out, err, code = S.runlua("/bin/sh", "-c", script)
			assert.are.equal(0, code, err)
			assert.are.equal("/bin/sh -c " .. script .. " ", out)
		end)
	end)

	describe("run_many", function()
		it("a spec that cannot run is an error entry with its index; the others run", function()
			local f = assert(sbx.open_file("/etc/hostname"))
			f:close()
			local rs = sbx.run_many {
				S.spec("echo one"),
				S.spec("cat", { stdin = f }),
				S.spec("echo three", { mounts = { { type = "bind", src = "/nonexistent/x" } } }),
				S.spec("echo four", { bogus = 1 }),
				S.spec("exit 5"),
			}
			assert.are.equal(5, #rs)
			assert.are.equal("one\n", rs[1].stdout)
			assert.are.same({ outcome = "error", index = 2,
				error = "spec 2: field 'stdin' is a closed file" }, rs[2])
			assert.are.same({ outcome = "error", index = 3, errno = sbx.errno.ENOENT,
				error = "spec 3: mount source /nonexistent/x: No such file or directory" }, rs[3])
			assert.are.same({ outcome = "error", index = 4, error = "spec 4: unknown key 'bogus'" }, rs[4])
			assert.are.equal("exit", rs[5].outcome)
			assert.are.equal(5, rs[5].code)
		end)

		it("sbx.core.run_many: a box whose stdin file was closed does not stop the others", function()
			local f = assert(sbx.open_file("/etc/hostname"))
			local a = assert(core.box(S.spec("cat", { stdin = f })))
			local b = assert(core.box(S.spec("echo two")))
			local c <close> = assert(core.box(S.spec("cat", { stdin = f })))
			f:close()
			local rs = core.run_many { a, b }
			a:close()
			b:close()
			assert.are.same({ outcome = "error", index = 1, error = "its stdin file was closed" }, rs[1])
			assert.are.equal("two\n", rs[2].stdout)
			-- alone, such a box still raises
			assert.has_error(function() c:run() end, "attempt to run a box whose stdin file was closed")
		end)

		it("misuse of the list itself raises", function()
			assert.has_error(function() sbx.run_many {} end,
				"bad argument #1 to 'run_many' (between 1 and 64 specs)")
			assert.has_error(function() sbx.run_many(1) end,
				"bad argument #1 to 'run_many' (table expected, got number)")
		end)
	end)

	describe("the REPL", function()
		-- lines typed into `sbxlua -i`; returns its stdout and stderr
		local function repl(input)
			local inf, errf = os.tmpname(), os.tmpname()
			local fh = assert(io.open(inf, "w"))
			fh:write(input)
			fh:close()
			local out = S.sh("HOME=/nonexistent " .. S.bin .. " -i <" .. inf .. " 2>" .. errf)
			local err = S.read(errf)
			os.remove(inf)
			os.remove(errf)
			return out, err
		end

		it("prints tables readably, other values as print does", function()
			local out, err = repl('return { a = 1, b = { "x\\n" } }\nreturn 1, "s", nil, {}\n'
				.. 'return sbx.box { argv = { "/bin/true" } }\n')
			assert.are.equal("", err)
			assert.are.equal(("sbxlua %s (Lua 5.4.4)\n"):format(sbx.version)
				.. '{\n  a = 1,\n  b = { "x\\n" }\n}\n'
				.. "1\ts\tnil\t{}\n"
				.. "sbx.box (/bin/true, 8 mounts)\n\n", out)
		end)

		it("a script does not load the printer", function()
			local out = S.sh(S.bin .. " -e " .. S.q("print(package.loaded.inspect)") .. " </dev/null")
			assert.are.equal("nil\n", out)
		end)
	end)

	describe("messages", function()
		it("a program that is not there is named once", function()
			local out, err, code = S.runlua("no-such-program-x")
			assert.are.equal(127, code)
			assert.are.equal("", out)
			assert.are.equal("sbxlua: no-such-program-x: not found\n", err)
			local _
			_, err, code = S.runlua("/nonexistent/prog")
			assert.are.equal("sbxlua: /nonexistent/prog: not found\n", err)
			assert.are.equal(127, code)
			_, err, code = S.runlua("/usr")
			assert.are.equal("sbxlua: /usr: not a regular file\n", err)
			assert.are.equal(126, code)
			local d, rm = S.tmpdir()
			os.execute("touch " .. S.q(d .. "/data") .. " && chmod 644 " .. S.q(d .. "/data"))
			_, err = S.runlua(d .. "/data")
			rm()
			assert.are.equal(("sbxlua: %s/data: not executable\n"):format(d), err)
		end)
	end)

	describe("the JSON's verified states", function()
		local function json(...)
			local j = os.tmpname()
			local _, err, code = S.runlua("--json", j, ...)
			local res = cjson.decode(S.read(j))
			os.remove(j)
			return res, err, code
		end

		it("verified, unverifiable and none, in the text report's words", function()
			local res, err, code = json("--verbose", "/bin/true")
			assert.are.equal(0, code, err)
			local v = res.verified
			for _, n in ipairs(sbx.namespaces()) do assert.are.equal("verified", v.namespaces[n], n) end
			for _, k in ipairs { "private_root", "read_only_root", "no_new_privs", "capabilities_dropped",
				"seccomp", "uid" } do
				assert.are.equal("verified", v[k], k)
			end
			-- made, but the kernel offers no read-back: never `false`
			assert.are.equal(sbx.landlock_abi() > 0 and "unverifiable" or "none", v.landlock)
			assert.are.equal("unverifiable", v.rlimits)
			if sbx.landlock_abi() > 0 then
				assert.matches("\nsandbox: landlock: ABI %d+ %(set; unverifiable: the kernel offers no read%-back%)\n",
					err)
			end
			res = json("--profile", "none", "--net", "host", "/bin/true")
			assert.are.equal("none", res.verified.seccomp)
			assert.are.equal("none", res.verified.namespaces.net)
			assert.are.equal("verified", res.verified.namespaces.user)
		end)

		it("failed when the kernel's view contradicts a claim", function()
			local spec, info = assert(stdbox.build { prog = "/bin/true" })
			local r = assert(sbx.run(spec))
			-- the probe as a box that kept no_new_privs off would show it
			r.probe.status = r.probe.status:gsub("\nNoNewPrivs:%s*1", "\nNoNewPrivs:\t0")
			local v = report.verify(r, info, sbx.ns_ids())
			local states = report.verified_states(r, info, v)
			assert.are.equal("failed", states.no_new_privs)
			assert.are.equal("verified", states.capabilities_dropped)
			local text = table.concat(report.isolation_lines(r, info, v), "\n")
			assert.matches("\nno_new_privs: yes %(failed%)\n", text)
			-- no probe at all (the box ended before it): nothing read back
			r.probe = nil
			states = report.verified_states(r, info, report.verify(r, info, sbx.ns_ids()))
			assert.are.equal("unverifiable", states.no_new_privs)
			assert.are.equal("unverifiable", states.namespaces.user)
		end)
	end)

	describe("a root caller's --rw directory", function()
		it("is refused up front when the box's host id cannot write it, with the fix", function()
			local d, rm = S.tmpdir() -- 0700, the caller's
			if not root then
				-- the box writes as the caller, who owns it
				local _, err, code = S.runlua("--rw", d .. ":/work", "/bin/sh", "-c", "echo x > /work/f")
				local got = S.read(d .. "/f")
				rm()
				assert.are.equal(0, code, err)
				assert.are.equal("x\n", got)
				return
			end
			local out, err, code = S.runlua("--rw", d .. ":/work", "/bin/true")
			assert.are.equal(126, code)
			assert.are.equal("", out)
			assert.are.equal(("sbxlua: --rw %s: the box's host id %d cannot write it"
				.. " (give it the directory: chown %d:%d %s)\n"):format(d, ID, ID, ID, d), err)
			-- read-only for others is no better
			os.execute("chmod 755 " .. S.q(d))
			local _
			_, err, code = S.runlua("--rw", d .. ":/work", "/bin/true")
			assert.are.equal(126, code, err)
			-- the fix the message names works, and the file is the box's
			os.execute(("chown %d:%d %s"):format(ID, ID, S.q(d)))
			_, err, code = S.runlua("--rw", d .. ":/work", "/bin/sh", "-c", "echo x > /work/f")
			local got = S.read(d .. "/f")
			local owner = S.sh("stat -c %u " .. S.q(d .. "/f"))
			rm()
			assert.are.equal(0, code, err)
			assert.are.equal("x\n", got)
			assert.are.equal(ID .. "\n", owner)
		end)

		it("a directory writable by others is taken", function()
			local d, rm = S.tmpdir()
			os.execute("chmod 1777 " .. S.q(d))
			local _, err, code = S.runlua("--rw", d .. ":/work", "/bin/sh", "-c", "echo x > /work/f")
			local got = S.read(d .. "/f")
			rm()
			assert.are.equal(0, code, err)
			assert.are.equal("x\n", got)
		end)
	end)
end)

describe("sbx.profile.data_dir [" .. S.priv .. "]", function()
	it("names the profiles and rules beside the modules, and checks its arguments", function()
		local profile = require "sbx.profile"
		local p = assert(profile.data_dir("profiles", "sbx.profile"))
		assert.truthy(io.open(p .. "/default.lua"), p)
		assert.are.equal(p, profile.dir())
		assert.truthy(io.open(profile.data_dir("rules", "sbx.verdict") .. "/box.lua"))
		assert.has_error(function() profile.data_dir("etc", "sbx.profile") end,
			'bad argument #1 to \'data_dir\' ("profiles" or "rules" expected, got "etc")')
		assert.has_error(function() profile.data_dir(nil, "sbx.profile") end,
			'bad argument #1 to \'data_dir\' ("profiles" or "rules" expected, got nil)')
		assert.has_error(function() profile.data_dir("rules", 5) end,
			"bad argument #2 to 'data_dir' (string expected, got number)")
	end)
end)

describe("sbx.cli.apply [" .. S.priv .. "]", function()
	it("calls each option's setter once per value typed, a flag's once, in the table's order", function()
		local cli = require "sbx.cli"
		local seen = {}
		local options = {
			{ "--ro", "PATH", "a value", function(o, typed, opt) seen[#seen + 1] = opt .. "=" .. typed; o.n = (o.n or 0) + 1 end },
			{ "-v --verbose", nil, "a flag", function(o) seen[#seen + 1] = "verbose"; o.v = true end },
			{ "--output-limit", "SIZE", "dashes", function(_, typed, opt) seen[#seen + 1] = opt .. "=" .. typed end },
			{ "--absent", "X", "not given", function() error("not typed: never called") end },
		}
		local o = cli.apply(options, { ro = { "/a", "/b" }, verbose = 1, output_limit = { "1M" } }, {})
		assert.are.same({ "--ro=/a", "--ro=/b", "verbose", "--output-limit=1M" }, seen)
		assert.are.same({ n = 2, v = true }, o)
		-- a flag counted 0 times is not given
		seen = {}
		cli.apply(options, { verbose = 0 }, {})
		assert.are.same({}, seen)
	end)
end)

describe("sbx.cli.parse [" .. S.priv .. "]", function()
	-- a command line whose first word is the program is parsed without
	-- lua-argparse's parser: the same result as the parser's, word for word
	it("gives for a plain command line what lua-argparse gives", function()
		local cli = require "sbx.cli"
		local run_t = {
			name = "t", options = {
				{ "--ro", "PATH", "a value" }, { "-v --verbose", nil, "a flag" },
				{ "--output-limit", "SIZE", "dashes" },
			},
			arguments = { { "PROG", "the program" }, { "ARGS", "its arguments", "*" } },
		}
		local batch_t = { name = "b", options = { { "-q --quiet", nil, "f" } },
			arguments = { { "PATH", "programs", "+" } } }
		-- lua-argparse's own answer: the same words behind an option
		-- that changes nothing (the parse then cannot take the plain way)
		local function by_parser(t, argv)
			local first = t.options[1]
			local name = first[1]:match("%-%-(%S+)$"):gsub("%-", "_")
			local args = { first[1]:match("%-%-%S+$"), first[2] and "/x" or nil }
			for _, a in ipairs(argv) do args[#args + 1] = a end
			local res = cli.parse(t, args, 2)
			res[name] = first[2] and {} or 0
			return res
		end
		for _, case in ipairs {
			{ run_t, { "/bin/true" } },
			{ run_t, { "prog", "a", "--ro", "-v", "--", "-" } },
			{ run_t, { "-", "x" } },
			{ run_t, { "prog", "" } },
			{ batch_t, { "a", "b", "-q" } },
			{ batch_t, { "a" } },
		} do
			assert.are.same(by_parser(case[1], case[2]), cli.parse(case[1], case[2], 2))
		end
	end)

	it("takes options after the operands of a script whose operands are its own", function()
		local cli = require "sbx.cli"
		local t = { name = "b", operands_anywhere = true,
			options = { { "-q --quiet", nil, "f" }, { "-o --output", "FILE", "v" } },
			arguments = { { "PATH", "programs", "+" } } }
		local res = cli.parse(t, { "a", "-q", "b", "--output", "x", "c" }, 2)
		assert.are.same({ { "a", "b", "c" }, 1, { "x" } }, { res.PATH, res.quiet, res.output })
		-- after --, a word that looks like an option is an operand
		res = cli.parse(t, { "-o", "-1", "--", "-q" }, 2)
		assert.are.same({ { "-q" }, 0, { "-1" } }, { res.PATH, res.quiet, res.output })
		-- a program's arguments stay its own
		t.operands_anywhere = nil
		res = cli.parse(t, { "a", "-q" }, 2)
		assert.are.same({ { "a", "-q" }, 0 }, { res.PATH, res.quiet })
	end)

	it("leaves to lua-argparse what does not fit, with its words", function()
		local out = S.sh(S.bin .. " -e 'require(\"sbx.cli\").parse({ name = \"t\", options = {}, "
			.. "arguments = { { \"A\", \"a\" } } }, { \"x\", \"y\" }, 3)' 2>&1; echo \" $?\"")
		assert.matches("^sbxlua: too many arguments %(see %-%-help%)\n 3\n$", out)
	end)
end)
