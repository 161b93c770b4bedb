-- The two walls inside the standard box: the default seccomp profile
-- answers every call of its deny-list with its errno, other ABIs kill, and
-- Landlock refuses a path the ruleset does not grant even when a mount puts
-- it in the box.  Run as root and as uid 65534 by scripts/test.sh.
local sbx = require "sbx"
local stdbox = require "sbx.box"
local profile = require "sbx.profile"
local report = require "sbx.report"
local S = require "support"

local PROBE = "build/tests/sysprobe"

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
		"ioctl-tioclinux-high", "seccomp-listener" } do
		want[c] = "EPERM"
	end
	want["clone-plain"], want.getpid = "ok", "ok"
	return want
end

describe("walls [" .. S.priv .. "]", function()
	it("the default profile answers every denied call inside the box", function()
		local want = expected()
		local out, err, code = S.runlua("--ro", PROBE .. ":/work/sysprobe", "/bin/sh", "-c",
			"for c in $(./sysprobe list); do case $c in socket|seccomp-filter|unshare-plain) continue;; esac; "
			.. "echo \"$c $(./sysprobe $c)\"; done; "
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
		for _, f in ipairs { "15", "17", "38", "40", "0x100000002" } do -- AF_KEY, AF_PACKET, AF_ALG, AF_VSOCK
			assert.are.equal("EAFNOSUPPORT", got["socket-" .. f], f)
		end
		for _, f in ipairs { "1", "2", "10", "16" } do assert.are.equal("ok", got["socket-" .. f], f) end
		assert.matches("Seccomp:%s+2\n", out)
	end)

	it("a call through another ABI kills the program, and the report says so", function()
		local _, err, code = S.runlua("build/tests/x32")
		assert.are.equal(125, code)
		assert.are.equal("sandbox: killed: refused system call: signal 31 (SIGSYS)\n", err)
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
		assert.are.equal(125, code)
		assert.are.equal("sandbox: killed: refused system call: signal 31 (SIGSYS)\n", err)
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
		assert.is_false(res.verified.seccomp)
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
			local f = assert(io.open(d .. "/file", "w"))
			f:write("reachable\n")
			f:close()
			os.execute("chmod 755 " .. d .. "; chmod 644 " .. d .. "/file")
			local spec, info = assert(stdbox.build { prog = "/bin/sh",
				args = { "-c", "cat /extra/file; cat /usr/share/extra/file; echo x > /tmp/ok && cat /tmp/ok" },
				filter = profile.compile(profile.load("default")) })
			-- a deliberately wrong tree: two mounts no Landlock rule grants
			-- (one under a granted read-only root, one of its own)
			table.insert(spec.mounts, { type = "bind", src = d, dst = "/extra" })
			spec.stdout, spec.stderr = "capture", "capture"
			local r = assert(sbx.run(spec))
			rm()
			assert.are.equal("exit", r.outcome)
			assert.not_matches("reachable", r.stdout)
			assert.matches("cat: /extra/file: Permission denied", r.stderr)
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

	it("report vocabulary for the refusal kill", function()
		local ev = report.events({ outcome = "signal", signal = 31, signame = "SIGSYS" }, { limits = {} })
		assert.are.equal("killed: refused system call: signal 31 (SIGSYS)", report.line(ev[1]))
		assert.are.equal(125, report.exit_code(ev))
	end)
end)
