-- SPDX-License-Identifier: MIT
-- check.lua: what this host offers, read off a real box.
local S = require "support"

describe("check.lua [" .. S.priv .. "]", function()
	it("says the box works here and how each limit is enforced", function()
		local out, code = S.sh(S.bin .. " check.lua 2>&1")
		assert.are.equal(0, code, out)
		assert.matches("^check: standard box: works, every claim verified from inside\n", out)
		assert.matches("\ncheck: landlock: ABI %d+\n", out)
		assert.matches("\ncheck: cgroup v2: [^\n]+\n", out)
		if S.euid() ~= 0 then
			assert.matches("\ncheck: cgroup v2: no usable base: [^\n]+\n", out)
		end
		for _, l in ipairs { "wall", "memory", "tasks", "output", "open files", "file size" } do
			assert.matches("\ncheck: limit: " .. l .. " [^\n]+ %(%a+[%a; ]*%)\n", out)
		end
		-- a sampled memory limit says what it leaves out, and how to get an exact one
		if out:find("\ncheck: limit: memory [^\n]+ %(sampled") then
			assert.matches("\ncheck: limit: memory 512 MiB %(sampled; pipe buffers and kernel objects not counted%)\n", out)
			assert.matches("\ncheck: memory: sampled, not exact: pipe buffers and kernel objects not counted; for an "
				.. "exact limit, give sbxlua a delegated cgroup v2 base with the memory controller "
				.. "%(%-%-cgroup DIR, see docs/limits.md%)\n", out)
		end
		assert.matches("\ncheck: limit: cpu 30 s %(sampled, box%-wide; rlimit per process%)\n", out)
	end)

	it("says whether the explain channel works: user notification, its sync flag, pidfd_getfd", function()
		local out, code = S.sh(S.bin .. " check.lua 2>&1")
		assert.are.equal(0, code, out)
		-- this kernel (6.18) has both; the host's own answer, read off a real box
		assert.matches("\ncheck: seccomp user notification: works %(with the synchronous wake%-up flag%)\n", out)
		assert.matches("\ncheck: pidfd_getfd: works %(the supervisor takes the box's listener%)\n", out)
	end)

	it("says whether the program may nest user namespaces: the host's knobs, the box, the default profile",
		function()
		local out, code = S.sh(S.bin .. " check.lua 2>&1")
		assert.are.equal(0, code, out)
		local max = S.read("/proc/sys/user/max_user_namespaces"):gsub("%s+$", "")
		-- this kernel (6.18, mainline) has neither Debian's knob nor AppArmor's
		assert.matches("\ncheck: user namespaces %(host%): max_user_namespaces " .. max
			.. "; unprivileged_userns_clone: not in this kernel; AppArmor restrict_unprivileged_userns: "
			.. "not in this kernel\n", out)
		-- stage two, for real: unshare -U in a box with no filter, then under
		-- the default profile (named by the explain channel)
		assert.matches("\ncheck: nested user namespaces: possible without a filter %(the program can make one "
			.. "inside the box's%); refused by the default profile %(unshare with namespace flags, EPERM%)\n", out)
	end)

	pending("nested user namespaces absent inside the box: this host allows them, and its sysctls are shared "
		.. "with other runs (the line's words: 'absent: the box's user namespace refuses another (REASON)')")

	it("exits 1 with the reason on a host without user namespaces", function()
		local out, code = S.sh("unshare -U -r sh -c 'echo 0 > /proc/sys/user/max_user_namespaces && "
			.. S.bin .. " check.lua' 2>&1")
		assert.are.equal(1, code)
		assert.matches("^check: standard box: cannot create namespaces: ENOSPC %(user namespaces are "
			.. "disabled or exhausted on this host%)\n", out)
		assert.matches("\ncheck: nested user namespaces: untested: the box does not make its own %(stage one%)\n",
			out)
	end)

	it("gives --help as every script does, and run.lua's usage errors in the same words", function()
		for _, script in ipairs { "check.lua", "run.lua" } do
			local out, code = S.sh(S.bin .. " " .. script .. " --help 2>&1")
			assert.are.equal(0, code, out)
			assert.matches("^Usage: sbxlua " .. script:gsub("%p", "%%%0") .. " %[%-h%]", out)
			assert.matches("\nOptions:\n   %-h, %-%-help +Show this help message and exit%.\n", out)
			out, code = S.sh(S.bin .. " " .. script .. " --bogus 2>&1")
			assert.are.equal(126, code)
			assert.are.equal("sbxlua: unknown option '--bogus' (see --help)\n", out)
		end
	end)

	it("refuses an unknown option or argument, in the words of every script", function()
		local out, code = S.sh(S.bin .. " check.lua --bogus 2>&1")
		assert.are.equal(126, code)
		assert.are.equal("sbxlua: unknown option '--bogus' (see --help)\n", out)
		out, code = S.sh(S.bin .. " check.lua x 2>&1")
		assert.are.equal(126, code)
		assert.are.equal("sbxlua: too many arguments (see --help)\n", out)
		out, code = S.sh(S.bin .. " check.lua " .. S.q("--x\nsbxlua: forged\27[2K") .. " 2>&1")
		assert.are.equal(126, code)
		assert.are.equal("sbxlua: unknown option '--x\\nsbxlua: forged\\x1b[2K' (see --help)\n", out)
	end)

	it("cannot be made to print a line of its own through a path", function()
		local d, rm = S.tmpdir()
		local base = d .. "/x\ncheck: forged\27[2K"
		os.execute("mkdir " .. S.q(base))
		local out = S.sh(S.bin .. " check.lua --cgroup " .. S.q(base) .. " 2>&1")
		rm()
		assert.matches("\ncheck: cgroup v2: no usable base: " .. d:gsub("%p", "%%%0")
			.. "/x\\ncheck: forged\\x1b%[2K is not a cgroup v2 directory\n", out)
		for l in out:gmatch("([^\n]*)\n") do
			assert.matches("^check: ", l)
			assert.is_nil(l:find("[%z\1-\31\127]"), l)
		end
	end)
end)
