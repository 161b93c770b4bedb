-- SPDX-License-Identifier: MIT
-- Backends: the choice (never silent), the process backend (limits and
-- filters, no namespace; what it cannot contain recorded), the OCI backend
-- with a real runtime, another root for the namespace box.
-- Run as root and as uid 65534 (SBX_TEST_PRIV=user).
local S = require "support"
local cjson = require "cjson"
local sbx = require "sbx"

local run = S.runlua
local FIRST = "sandbox: isolation: none (process backend: limits and filters only)\n"

local function json_of(path)
	local s = S.read(path)
	return s and cjson.decode(s)
end

describe("backends [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	describe("choice", function()
		it("refuses an unknown backend", function()
			local _, err, code = run("--backend", "docker", "/bin/true")
			assert.are.equal(126, code)
			assert.matches("--backend docker: expected ns, process or oci", err, 1, true)
		end)

		it("refuses with 126 and names what could run when namespaces cannot be made", function()
			-- a user namespace of the test's own whose count of nested
			-- namespaces is 0: creating the box's namespaces fails there
			local err = os.tmpname()
			local _, code = S.sh("unshare -Ur sh -c 'echo 0 > /proc/sys/user/max_user_namespaces && exec "
				.. S.bin .. " run.lua /bin/true' 2>" .. err .. " </dev/null")
			local e = S.read(err)
			os.remove(err)
			assert.are.equal(126, code, e)
			assert.matches("^sandbox: cannot create namespaces: ENOSPC", e)
			assert.matches("sbxlua: the namespace box cannot be built here;", e, 1, true)
			assert.matches("could run: --backend process", e, 1, true)
			-- and nothing ran in its place
			assert.not_matches("exit 0", e, 1, true)
		end)

		-- one registry says what each backend cannot honour; nothing is
		-- claimed that the backend did not do (a sink without a network
		-- namespace of the box's own would be a claim of nothing)
		it("refuses what a backend cannot honour, before any box, with its reason", function()
			for _, c in ipairs {
				{ { "--backend", "process", "--net", "sink" }, "--net sink: needs the namespace box" },
				{ { "--backend", "oci", "--net", "sink" }, "--net sink: needs the namespace box" },
				{ { "--backend", "process", "--ro", "/usr/share:/data" },
					"--ro /usr/share:/data: the process backend cannot move a path" },
				{ { "--backend", "process", "--decoys" }, "--decoys: needs the namespace box" },
				{ { "--backend", "oci", "--runtime", "podman" }, "--runtime podman: needs --image" },
			} do
				local argv = { table.unpack(c[1]) }
				argv[#argv + 1] = "/bin/echo"
				argv[#argv + 1] = "ran"
				local out, err, code = run(table.unpack(argv))
				assert.are.equal(126, code, table.concat(c[1], " ") .. ": " .. err)
				assert.matches(c[2], err, 1, true)
				assert.are.equal("", out)
			end
			local backend = require "sbx.backend"
			assert.are.same({ "ns", "process", "oci" }, backend.names)
			for _, b in ipairs(backend.registry) do
				assert.is_string(b.name)
				assert.is_function(b.load)
				assert.is_table(b.refuses)
			end
		end)

		it("rejects an unknown backend in a Lua spec", function()
			assert.has_error(function() sbx.run { backend = "vm", argv = { "/bin/true" } } end)
		end)
	end)

	describe("process", function()
		it("says in its first line that there is no namespace isolation", function()
			local out, err, code = run("--backend", "process", "/bin/sh", "-c", "echo hi")
			assert.are.equal("hi\n", out)
			assert.are.equal(FIRST .. "sandbox: exit 0\n", err)
			assert.are.equal(0, code)
		end)

		it("keeps it first with --verbose, and the digest differs from the namespace box's", function()
			local d = S.tmpdir()
			local _, err = run("--backend", "process", "-v", "--json", d .. "/p.json", "/bin/true")
			assert.are.equal(FIRST, err:match("^[^\n]*\n"))
			assert.matches("sandbox: namespaces: none\n", err, 1, true)
			run("--json", d .. "/n.json", "/bin/true")
			local p, n = json_of(d .. "/p.json"), json_of(d .. "/n.json")
			os.execute("rm -rf " .. S.q(d))
			assert.are.equal("isolation", p.events[1].kind)
			assert.is_false(p.isolation.private_root)
			assert.is_false(p.isolation.namespaces.pid)
			assert.is_true(n.isolation.namespaces.pid)
			assert.are_not.equal(p.digest, n.digest)
		end)

		it("drops capabilities, sets no_new_privs and the filter", function()
			local out = run("--backend", "process", "/bin/sh", "-c",
				"grep -E '^(CapPrm|CapEff|CapAmb|NoNewPrivs|Seccomp):' /proc/self/status")
			assert.are.equal("CapPrm:\t0000000000000000\nCapEff:\t0000000000000000\nCapAmb:\t0000000000000000\n"
				.. "NoNewPrivs:\t1\nSeccomp:\t2\n", out)
		end)

		it("runs in a private working directory, the only writable place, removed after", function()
			local out, err = run("--backend", "process", "/bin/sh", "-c",
				"pwd; echo x > f && cat f; { echo y > /tmp/sbxtest-process-out; } 2>/dev/null || echo refused;"
				.. " mkdir -p d/e && touch d/e/f && chmod 0 d/e d")
			local dir = out:match("^([^\n]*)\n")
			assert.matches("^/tmp/sbxlua%-process%.", dir)
			assert.are.equal(dir .. "\nx\nrefused\n", out, err)
			assert.is_nil(sbx.lstat(dir))
			assert.is_nil(sbx.lstat("/tmp/sbxtest-process-out"))
		end)

		it("gives exactly the spec's environment", function()
			local out = run("--backend", "process", "--env", "A=1", "/usr/bin/env")
			local keys = {}
			for k in out:gmatch("([^=\n]+)=[^\n]*\n") do keys[#keys + 1] = k end
			table.sort(keys)
			assert.are.equal("A HOME LANG LOGNAME PATH USER", table.concat(keys, " "))
		end)

		it("enforces the wall clock, cpu and output limits", function()
			local _, err, code = run("--backend", "process", "--wall", "1", "/bin/sleep", "30")
			assert.are.equal(FIRST .. "sandbox: killed: wall clock (1 s)\n", err)
			assert.are.equal(124, code)
			_, err, code = run("--backend", "process", "--cpu", "1", "/bin/sh", "-c", "while :; do :; done")
			assert.are.equal(FIRST .. "sandbox: killed: cpu limit (1 s)\n", err)
			assert.are.equal(124, code)
			_, err, code = run("--backend", "process", "--output-limit", "1M", "/usr/bin/yes")
			assert.are.equal(FIRST .. "sandbox: killed: output limit (1 MiB)\n", err)
			assert.are.equal(124, code)
		end)

		it("holds the task limit", function()
			local _, err, code = run("--backend", "process", "--pids", "8", "/bin/sh", "-c",
				"for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do sleep 5 & done; wait")
			assert.are.equal(FIRST .. "sandbox: killed: process limit (8)\n", err)
			assert.are.equal(124, code)
		end)

		it("runs from a Lua spec with backend = \"process\"", function()
			local r = assert(sbx.run { backend = "process", argv = { "/bin/sh", "-c", "exit 3" },
				env = { PATH = "/usr/bin:/bin" }, cwd = "/", stdout = "capture", stderr = "capture" })
			assert.are.equal("exit", r.outcome)
			assert.are.equal(3, r.code)
			assert.has_error(function() sbx.run { backend = "process", hostname = "x", argv = { "/bin/true" } } end,
				"bad argument #1 to 'run' (the process backend has no hostname)")
		end)
	end)
	-- The hostile suites' key cases against the process backend: each is
	-- run and recorded as contained or not (to the file SBX_TEST_RECORD
	-- names, when set); the cases it cannot contain must be exactly those
	-- docs/backends.md lists.
	describe("process: what it cannot contain", function()
		local me = S.pid()
		local secret = "/tmp/sbxtest-secret-" .. me
		local written = "/var/tmp/sbxtest-written-" .. me
		local sock = "/tmp/sbxtest-sock-" .. me
		local marker = "sbxtest-outlive-" .. me
		local py = "/usr/bin/python3"
		local cases = {
			{ name = "read a host file outside its roots", argv = { "/bin/cat", secret },
				contained = function(out) return out ~= "secret\n" end },
			{ name = "write outside its working directory", argv = { "/bin/sh", "-c", "echo x > " .. written },
				contained = function() return sbx.lstat(written) == nil end },
			{ name = "see the host's processes", argv = { "/bin/sh", "-c", "test -d /proc/" .. me .. " && echo seen" },
				contained = function(out) return out ~= "seen\n" end },
			{ name = "read another process's command line",
				argv = { "/bin/sh", "-c", "tr '\\0' ' ' < /proc/" .. me .. "/cmdline" },
				contained = function(out) return out == "" end },
			{ name = "signal a host process", argv = { "/bin/sh", "-c", "kill -0 " .. me .. " && echo sent" },
				contained = function(out) return out ~= "sent\n" end },
			{ name = "connect to a host TCP port", argv = { py, "-c",
				"import socket\ntry:\n socket.create_connection(('127.0.0.1', 1), 5)\nexcept ConnectionRefusedError:\n"
				.. " print('reached')\nexcept OSError as e:\n print(e.errno)" },
				contained = function(out) return out ~= "reached\n" end },
			{ name = "send UDP to the host's network", argv = { py, "-c",
				"import socket\ns = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\n"
				.. "print('sent' if s.sendto(b'x', ('127.0.0.1', 9)) == 1 else 'no')" },
				contained = function(out) return out ~= "sent\n" end },
			{ name = "connect to a host unix socket", argv = { py, "-c",
				"import socket\ns = socket.socket(socket.AF_UNIX)\ntry:\n s.connect('" .. sock .. "')\n"
				.. "except ConnectionRefusedError:\n print('reached')\nexcept OSError as e:\n print(e.errno)" },
				contained = function(out) return out ~= "reached\n" end },
			{ name = "leave a process running after the run", argv = { "/bin/sh", "-c",
				"setsid " .. py .. " -c 'import time; time.sleep(60)' " .. marker .. " >/dev/null 2>&1 < /dev/null &" },
				contained = function()
					local pids = S.sh("pgrep -f '[s]" .. marker:sub(2) .. "'")
					for pid in pids:gmatch("%d+") do os.execute("kill -9 " .. pid) end
					return pids == ""
				end },
			{ name = "read the host's hostname", argv = { "/bin/uname", "-n" },
				contained = function(out) return out ~= S.sh("uname -n") end },
		}

		local function documented()
			local doc = assert(S.read("docs/backends.md"))
			local block = assert(doc:match("<!%-%- process%-not%-contained:begin %-%->\n(.-)<!%-%- process%-not%-contained:end %-%->"))
			local t = {}
			for l in block:gmatch("%- ([^\n]+)\n") do t[#t + 1] = l end
			table.sort(t)
			return table.concat(t, "\n")
		end

		it("records each case and matches the documented list", function()
			S.sh("echo secret > " .. secret .. " && chmod 644 " .. secret)
			S.sh(py .. " -c \"import socket; socket.socket(socket.AF_UNIX).bind('" .. sock .. "')\"")
			local record = os.getenv("SBX_TEST_RECORD")
			local lines, missed = {}, {}
			for _, c in ipairs(cases) do
				local out = run("--backend", "process", "--wall", "20", table.unpack(c.argv))
				local ok = c.contained(out)
				lines[#lines + 1] = ("%s: %s"):format(c.name, ok and "contained" or "not contained")
				if not ok then missed[#missed + 1] = c.name end
			end
			os.remove(secret)
			os.remove(written)
			os.remove(sock)
			if record and record ~= "" then
				S.write(record, table.concat(lines, "\n") .. "\n")
			end
			table.sort(missed)
			assert.are.equal(documented(), table.concat(missed, "\n"), table.concat(lines, "\n"))
		end)
	end)
	describe("oci", function()
		local oci = require "sbx.backend.oci"
		local rt = oci.runtime("runc")
		local rootless = S.euid() ~= 0
		local first = rt and ("sandbox: isolation: oci (runc %s%s)\n"):format(rt.version, rootless and ", rootless" or "")
		-- the bundles of this file's runs are made in a directory of its
		-- own (TMPDIR), so that another suite's runs at the same time are
		-- not taken for leftovers
		local tmp, rm_tmp = S.tmpdir()
		-- traversable by the container's host id, as /tmp is
		os.execute("chmod 0711 " .. S.q(tmp))
		teardown(rm_tmp)
		local function orun(...) return S.runlua_env("TMPDIR=" .. S.q(tmp), ...) end
		local function left_behind()
			local out = S.sh("ls " .. S.q(tmp) .. " | grep '^sbxlua-oci\\.' ; pgrep -f '[s]bxtest-oci-"
				.. S.pid() .. "'")
			return out
		end
		local function it_runc(name, f)
			if rt then it(name, f) else pending("runc is not installed: " .. name) end
		end

		-- a root caller's container maps 65536 ids from its host id on,
		-- and its processes may run as any of them: a host process
		-- holding one of them refuses the run, as the host id itself does
		it_runc("refuses a host id range one of whose ids a host process holds", function()
			if S.euid() ~= 0 then return pending("only a root caller's container maps a range") end
			-- this suite's own range of 65536 ids: another suite's at
			-- the same time (make check-stress) has another, unless
			-- their pids agree modulo 1024
			local id = 0x74000000 + (tonumber(S.pid()) % 0x400) * 0x10000
			local pid = S.sh(("setpriv --reuid=%d --regid=%d --clear-groups sleep 60 >/dev/null 2>&1 & echo $!")
				:format(id + 1000, id + 1000)):match("%d+")
			for _ = 1, 1500 do -- until setpriv has become that id
				if (S.read("/proc/" .. pid .. "/status") or ""):match("\nUid:%s+" .. (id + 1000)) then break end
				os.execute("sleep 0.02")
			end
			local _, err, code = orun("--backend", "oci", "--host-id", tostring(id), "/bin/true")
			local _, nerr, ncode = orun("--host-id", tostring(id), "/bin/true")
			os.execute("kill " .. pid)
			assert.are.equal(126, code)
			assert.matches(("^sbxlua: /bin/true: host ids %d to %d: 1 host process%%(es%%) run as one %%(%s %%a+%%)\n$")
				:format(id, id + 65535, pid), err)
			-- the namespace box maps the host id alone
			assert.are.equal(0, ncode, nerr)
			assert.are.equal("", left_behind())
		end)

		it_runc("runs with no network, a read-only root, no capability, no_new_privs, the filter", function()
			local out, err, code = orun("--backend", "oci", "/bin/sh", "-c",
				"grep -E '^(CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs|Seccomp):' /proc/self/status;"
				.. " tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ';"
				.. " touch /x 2>/dev/null || echo read-only; id -u;"
				.. " unshare -U true 2>/dev/null || echo refused; echo w > f && cat f")
			assert.are.equal(first .. "sandbox: exit 0\n", err)
			assert.are.equal(0, code)
			assert.are.equal("CapInh:\t0000000000000000\nCapPrm:\t0000000000000000\n"
				.. "CapEff:\t0000000000000000\nCapBnd:\t0000000000000000\nCapAmb:\t0000000000000000\n"
				.. "NoNewPrivs:\t1\nSeccomp:\t2\nlo\nread-only\n" .. (rootless and "0" or "1000") .. "\nrefused\nw\n", out)
			assert.are.equal("", left_behind())
		end)

		it_runc("reads the runtime's record back: every isolation line verified", function()
			local d = S.tmpdir()
			local _, err = orun("--backend", "oci", "-v", "--json", d .. "/o.json", "/bin/true")
			local j = json_of(d .. "/o.json")
			os.execute("rm -rf " .. S.q(d))
			assert.matches("sandbox: namespaces: user mount pid ipc net uts cgroup (verified)\n", err, 1, true)
			assert.matches("sandbox: root: the bundle's directory (verified), read-only (verified)\n", err, 1, true)
			assert.matches("sandbox: no_new_privs: yes (verified)\nsandbox: capabilities: none (verified)\n", err, 1, true)
			assert.not_matches("not as asked", err, 1, true)
			assert.are.equal("verified", j.verified.uid)
			assert.are.equal("oci", j.isolation.seccomp and "oci")
			assert.are.equal("", left_behind())
		end)

		it_runc("says when the runtime's record differs from what was asked, and exits 126", function()
			-- a real run whose promise is changed after the bundle was
			-- written: the record shows what the runtime did
			local backend = require "sbx.backend"
			local report = require "sbx.report"
			local spec, info = assert(backend.build { backend = "oci", prog = "/bin/true", args = {},
				stdout = "capture", stderr = "capture" })
			info.asked.uid = 4242
			local r = assert(backend.run(spec, info))
			local events = report.events(r, info)
			assert.are.equal("not as asked: uid: asked 4242, recorded " .. tostring(info.record_uid),
				report.line(events[2]))
			assert.are.equal(126, report.exit_code(events))
			assert.are.equal("", left_behind())
		end)

		it_runc("passes the program's exit code", function()
			local _, err, code = orun("--backend", "oci", "/bin/sh", "-c", "exit 7")
			assert.are.equal(first .. "sandbox: exit 7\n", err)
			assert.are.equal(7, code)
		end)

		it_runc("stops at the wall clock and leaves nothing behind", function()
			local _, err, code = orun("--backend", "oci", "--wall", "2", "/usr/bin/python3", "-c",
				"import time; time.sleep(60)", "sbxtest-oci-" .. S.pid())
			assert.are.equal(first .. "sandbox: killed: wall clock (2 s)\n", err)
			assert.are.equal(124, code)
			assert.are.equal("", left_behind())
		end)

		it_runc("stops an output flood and leaves nothing behind", function()
			local _, err, code = orun("--backend", "oci", "--output-limit", "1M", "/usr/bin/yes")
			-- after whatever yes said of its broken pipe
			local tail = first .. "sandbox: killed: output limit (1 MiB)\n"
			assert.are.equal(tail, err:sub(-#tail))
			assert.are.equal(124, code)
			assert.are.equal("", left_behind())
		end)

		it_runc("writes the profile as OCI seccomp rules", function()
			local prof = assert(require("sbx.profile").load("default"))
			local sc = assert(oci.seccomp(prof))
			assert.are.equal("SCMP_ACT_ALLOW", sc.defaultAction)
			assert.are.equal(#prof.rules, #sc.syscalls)
			local tiocsti
			for _, r in ipairs(sc.syscalls) do
				if r.names[1] == "ioctl" and r.args[1].valueTwo == 0x5412 then tiocsti = r end
			end
			assert.are.same({ index = 1, op = "SCMP_CMP_MASKED_EQ", value = 0xffffffff, valueTwo = 0x5412 },
				tiocsti.args[1])
			assert.are.equal(sbx.errno.EPERM, tiocsti.errnoRet)
		end)

		it("says which runtime ran: crun where it runs", function()
			local c = oci.runtime("crun")
			if not c then return pending("crun is not installed") end
			local _, err, code = orun("--backend", "oci", "--runtime", "crun", "/bin/sh", "-c", "exit 3")
			if code == 126 and err:match("hybrid mode not supported") then
				return pending("crun refuses this host's hybrid cgroup layout (\"cgroups in hybrid mode not supported\")")
			end
			assert.are.equal(("sandbox: isolation: oci (crun %s%s)\nsandbox: exit 3\n")
				:format(c.version, rootless and ", rootless" or ""), err)
		end)
	end)
	-- Roots are cached under SBX_TEST_CACHE (default
	-- /var/tmp/sbxlua-test-cache), built once as root: a minimal root of
	-- the host's dash and its libraries, and a Debian minbase made by
	-- debootstrap from the configured mirror.
	describe("--rootfs", function()
		local cache = os.getenv("SBX_TEST_CACHE") or "/var/tmp/sbxlua-test-cache"
		local root = S.euid() == 0

		-- a root built by `make` (a shell command over $D) into
		-- cache/name, whole or not at all: built in a directory of its
		-- own (two suites at once build it side by side), marked last,
		-- then renamed into place unless the other was there first; an
		-- entry without `needs` (a file every use of it runs) is a broken
		-- one, built again.  nil, why when it is not there and cannot be
		-- built here
		local function present(path)
			local f = io.open(path, "rb")
			if f then f:close() end
			return f ~= nil
		end
		local function cached(name, make, needs, why_not)
			local dir = cache .. "/" .. name
			if present(dir .. "/sbxtest-root") and present(dir .. needs) then return dir end
			if not root then return nil, why_not or "a root caller builds the cache first" end
			local out, code = S.sh("mkdir -p " .. S.q(cache) .. " && chmod 755 " .. S.q(cache)
				.. " && D=$(mktemp -d " .. S.q(dir .. ".XXXXXX") .. ") && ("
				.. make .. ") >\"$D.log\" 2>&1 && test -e \"$D\"" .. S.q(needs)
				.. " && echo " .. name .. " > \"$D/sbxtest-root\" && chmod 755 \"$D\" && rm -f \"$D.log\""
				.. " && { test -e " .. S.q(dir .. needs) .. " || rm -rf " .. S.q(dir) .. "; }"
				.. " && { mv -T \"$D\" " .. S.q(dir) .. " 2>/dev/null || rm -rf \"$D\"; }"
				.. "; r=$?; [ $r -eq 0 ] || { tail -n 1 \"$D.log\"; rm -rf \"$D\" \"$D.log\"; }; echo $r")
			if tonumber(out:match("(%d+)%s*$")) ~= 0 or code ~= 0 or not present(dir .. needs) then
				return nil, ("cannot build %s: %s"):format(name, (out:match("([^\n]*)\n%d+%s*$") or ""))
			end
			return dir
		end

		local function minimal()
			return cached("dash-minimal", "mkdir -p \"$D/bin\" && cp /usr/bin/dash \"$D/bin/sh\" && "
				.. "for l in $(ldd /usr/bin/dash | grep -o '/[^ ]*'); do mkdir -p \"$D$(dirname $l)\" && cp \"$l\" \"$D$l\"; done",
				"/bin/sh")
		end

		it("runs the root's own /bin/sh (a minimal root), read-only, with the synthetic /etc", function()
			local dir, why = minimal()
			if not dir then return pending(why) end
			local out, err, code = run("--rootfs", dir, "/bin/sh", "-c",
				"read x < /sbxtest-root; echo $x; { echo > /bin/x; } 2>/dev/null || echo read-only;"
				.. " read u < /etc/hostname; echo $u; echo w > /work/f && read y < /work/f && echo $y")
			assert.are.equal("sandbox: exit 0\n", err)
			assert.are.equal(0, code)
			assert.are.equal("dash-minimal\nread-only\ndana-laptop\nw\n", out)
		end)

		it("names the root in the digest", function()
			local dir, why = minimal()
			if not dir then return pending(why) end
			local d = S.tmpdir()
			run("--rootfs", dir, "--json", d .. "/r.json", "/bin/sh", "-c", "true")
			run("--json", d .. "/n.json", "/bin/sh", "-c", "true")
			local r, n = json_of(d .. "/r.json"), json_of(d .. "/n.json")
			os.execute("rm -rf " .. S.q(d))
			assert.are_not.equal(r.digest, n.digest)
			local id = require("sbx.backend.rootfs").identity(dir)
			assert.matches("^sha256:%x+$", id)
		end)

		it("refuses a program the root does not have", function()
			local dir, why = minimal()
			if not dir then return pending(why) end
			local _, err, code = run("--rootfs", dir, "/usr/bin/python3", "-c", "1")
			assert.are.equal(126, code)
			assert.matches("not found in the root", err, 1, true)
		end)

		it("runs a Debian minbase root's /bin/sh against its own libc", function()
			local dir, why = cached("bookworm-minbase",
				"debootstrap --variant=minbase bookworm \"$D\" http://deb.debian.org/debian",
				"/usr/lib/x86_64-linux-gnu/libc.so.6", "needs the cached debootstrap root (a root caller builds it)")
			if not dir then return pending(why) end
			local out, err, code = run("--rootfs", dir, "/bin/sh", "-c",
				"read x < /sbxtest-root; echo $x; ls /usr/lib/x86_64-linux-gnu/libc.so.6;"
				.. " grep -o '/usr/lib/x86_64-linux-gnu/libc.so.6' /proc/self/maps | head -1;"
				.. " stat -L -c %i /usr/lib/x86_64-linux-gnu/libc.so.6")
			assert.are.equal("sandbox: exit 0\n", err)
			assert.are.equal(0, code)
			-- the libc the shell mapped is the root's file, not the host's
			local lib = "/usr/lib/x86_64-linux-gnu/libc.so.6"
			local theirs = S.sh("stat -L -c %i " .. S.q(dir .. lib))
			assert.are_not.equal(S.sh("stat -L -c %i " .. lib), theirs)
			assert.are.equal("bookworm-minbase\n" .. lib .. "\n" .. lib .. "\n" .. theirs, out)
		end)
	end)
end)
