-- SPDX-License-Identifier: MIT
-- A box that looks like an ordinary host (sbx.stdbox's `host` and `user`):
-- programs that count CPUs through /sys, read /etc/os-release, the host's
-- name, the user and its home, as they would on a host; no DMI, no device
-- list, no writable /sys; no word that names the box anywhere a sample
-- reads; and a sample's checks for a sandbox named in its behaviour
-- (T1497.001, the tag detect_debug_environment).  Real boxes only.
-- scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"
local cjson = require "cjson"
local stdbox = require "sbx.stdbox"

local run = S.runlua

-- the host's count of online CPUs
local function host_cpus()
	return tonumber((S.sh("getconf _NPROCESSORS_ONLN")))
end

-- runs `sh -c script` in the standard box; returns stdout, asserting exit 0
local function box_sh(script, ...)
	local args = { ... }
	args[#args + 1] = "sh"
	args[#args + 1] = "-c"
	args[#args + 1] = script
	local out, err, code = run(table.unpack(args))
	assert.are.equal(0, code, err)
	return out, err
end

describe("an ordinary host [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	describe("CPUs counted through /sys", function()
		it("nproc, lscpu, python3's os.cpu_count() and the cpuN directories agree with the host", function()
			local n = host_cpus()
			assert.is_true(n and n >= 1)
			local out = box_sh("nproc; lscpu | sed -n 's/^CPU(s): *//p'; "
				.. "/usr/bin/python3 -c 'import os; print(os.cpu_count())'; "
				.. "ls /sys/devices/system/cpu | grep -c '^cpu[0-9][0-9]*$'; cat /sys/devices/system/cpu/online")
			local want = ("%d\n%d\n%d\n%d\n"):format(n, n, n, n)
			assert.are.equal(want, out:match("^(.-\n.-\n.-\n.-\n)"), out)
			assert.is_truthy(out:match("\n0[%-%d,]*\n$"), out)
		end)

		it("a Go program's runtime.NumCPU() and GOMAXPROCS agree with the host", function()
			if not S.sh("command -v go"):match("/go") then
				return pending("no Go toolchain on this host (Debian's golang-go)")
			end
			local d, remove = S.tmpdir()
			local f = assert(io.open(d .. "/main.go", "w"))
			f:write('package main\nimport (\n\t"fmt"\n\t"runtime"\n)\n'
				.. "func main() { fmt.Println(runtime.NumCPU(), runtime.GOMAXPROCS(0)) }\n")
			f:close()
			local msg, st = S.sh(("cd %s && HOME=%s GOCACHE=%s/cache GO111MODULE=off go build -o numcpu main.go 2>&1")
				:format(S.q(d), S.q(d), S.q(d)))
			assert.are.equal(0, st, msg)
			local out, err, code = run(d .. "/numcpu")
			remove()
			assert.are.equal(0, code, err)
			local n = host_cpus()
			assert.are.equal(("%d %d\n"):format(n, n), out)
		end)

		it("the NUMA nodes and the huge page sizes are there, where the host has them", function()
			local script = ""
			for _, dir in ipairs(stdbox.host.sys) do
				if S.sh("test -d " .. S.q(dir) .. " && echo y") == "y\n" then
					script = script .. "test -d " .. S.q(dir) .. " || echo missing " .. S.q(dir) .. "; "
				end
			end
			assert.are.equal("", box_sh(script .. "true"))
		end)

		it("a /sys directory the host lacks leaves the box as it was", function()
			local saved = stdbox.host.sys
			stdbox.host.sys = { "/sys/no/such/dir", table.unpack(saved) }
			local spec, info = stdbox.build { prog = "true" }
			stdbox.host.sys = saved
			assert.is_table(spec, info)
			for _, m in ipairs(spec.mounts) do assert.are_not.equal("/sys/no/such/dir", m.src) end
		end)
	end)

	describe("no device list, no DMI, no writable /sys", function()
		it("/sys holds only the CPU, node and memory subsets, and the box's own lo", function()
			local out = box_sh("for p in /sys/block /sys/bus /sys/firmware /sys/fs /sys/class/dmi"
				.. " /sys/hypervisor /sys/devices/pci0000:00; do"
				.. " test -e $p && echo present $p; done; ls /sys /sys/devices /sys/kernel /sys/class"
				.. " /sys/devices/virtual")
			assert.are.equal("/sys:\nclass\ndevices\nkernel\n\n/sys/class:\nnet\n\n/sys/devices:\nsystem\n"
				.. "virtual\n\n/sys/devices/virtual:\nnet\n\n/sys/kernel:\nmm\n", out)
		end)

		it("/sys/class/net lists lo alone (a sysfs of the box's network namespace), never the host's devices", function()
			local host = S.sh("ls /sys/class/net")
			assert.is_truthy(host:find("lo\n", 1, true))
			local out = box_sh("ls /sys/class/net /sys/devices/virtual/net; readlink /sys/class/net/lo; "
				.. "cat /sys/class/net/lo/address /sys/class/net/lo/mtu; "
				.. "{ echo 1500 > /sys/class/net/lo/mtu; } 2>/dev/null && echo wrote || echo refused")
			assert.are.equal("/sys/class/net:\nlo\n\n/sys/devices/virtual/net:\nlo\n"
				.. "../../devices/virtual/net/lo\n00:00:00:00:00:00\n65536\nrefused\n", out)
			-- a box on the host's network has none of it
			local spec = stdbox.build { prog = "true", net = "host" }
			for _, m in ipairs(spec and spec.mounts or {}) do assert.are_not.equal("sysnet", m.type) end
			local ok, err = pcall(require("sbx").box, S.spec("true", { mounts = { { type = "sysnet", dst = "/sys" } },
				namespaces = { "user", "mount", "pid", "uts" } }))
			assert.is_false(ok)
			assert.matches("sysnet needs the net namespace", err)
		end)

		it("a write to a /sys knob fails inside, and the host's file is unchanged", function()
			local knob = "/sys/kernel/mm/transparent_hugepage/enabled"
			local before = S.read(knob)
			if not before then return pending("this host has no " .. knob) end
			local out = box_sh("{ echo never > " .. knob .. "; } 2>/dev/null && echo wrote || echo refused; "
				.. "{ echo 0 > /sys/devices/system/cpu/cpu0/online; } 2>/dev/null && echo wrote || echo refused; "
				.. "grep ' /sys/' /proc/self/mountinfo | grep -v ' ro,' | wc -l")
			assert.are.equal("refused\nrefused\n0\n", out)
			assert.are.equal(before, S.read(knob))
		end)
	end)

	describe("the machine it seems to be", function()
		it("/etc/os-release is the system's own", function()
			local host = S.read("/usr/lib/os-release")
			if not host then return pending("this host has no /usr/lib/os-release") end
			local out = box_sh("cat /etc/os-release; /usr/bin/python3 -c "
				.. "'import platform; print(platform.freedesktop_os_release()[\"ID\"])'")
			local id = host:match("\nID=\"?([^\"\n]+)") or host:match("^ID=\"?([^\"\n]+)")
			assert.are.equal(host .. id .. "\n", out)
		end)

		it("the host name, the user and the home are ordinary ones", function()
			local u, h = stdbox.user, stdbox.host
			local out = box_sh("hostname; uname -n; cat /etc/hostname; id -un; whoami; echo $HOME $USER $LOGNAME; pwd;"
				.. " getent passwd " .. u.name .. " | cut -d: -f6,7")
			assert.are.equal(("%s\n%s\n%s\n%s\n%s\n%s %s %s\n/work\n%s:/bin/bash\n"):format(h.hostname,
				h.hostname, h.hostname, u.name, u.name, u.home, u.name, u.name, u.home), out)
			for _, word in ipairs { "sbx", "sandbox", "sbxlua" } do
				assert.is_falsy(out:lower():find(word, 1, true), word)
			end
		end)

		it("pid 1 is named and called as a Debian host's init, never with the host's command line", function()
			local i = stdbox.host.init
			-- a marker in sbxlua's own command line: init is a copy of sbxlua
			local out = box_sh("cat /proc/1/comm; od -An -v -c /proc/1/cmdline | tr -d ' \\n'; echo; "
				.. "ps -p 1 -o comm=,args=", "--env", "SBX_MARKER=host-secret-1d6f")
			local comm, cmd, ps = out:match("^([^\n]*)\n([^\n]*)\n([^\n]*)\n$")
			assert.are.equal(i.comm, comm, out)
			assert.are.equal(i.cmdline, cmd:sub(1, #i.cmdline), out)
			local rest = cmd:sub(#i.cmdline + 1)
			assert.are.equal("\\0", rest:sub(1, 2), out)
			assert.are.equal("", (rest:gsub("\\0", "")), "only zeros after the command line: " .. cmd)
			assert.matches("^" .. i.comm .. "%s+" .. i.cmdline:gsub("%p", "%%%0") .. "%s*$", ps)
			assert.is_falsy(out:find("host-secret", 1, true))
		end)

		it("the spec's init is checked: a table of a short name and a one-word command line", function()
			for _, bad in ipairs { 5, "systemd", { comm = ("x"):rep(16) }, { comm = "" }, { comm = "a\0b" },
				{ cmdline = ("y"):rep(64) }, { cmdline = 7 }, { pid = 1 } } do
				local ok, err = pcall(require("sbx").box, S.spec("true", { init = bad }))
				assert.is_false(ok)
				assert.matches("init", err)
			end
			local saved = stdbox.host.init
			stdbox.host.init = false
			local spec = stdbox.build { prog = "true" }
			stdbox.host.init = saved
			assert.is_nil(spec.init)
		end)

		it("the home holds the usual dot files, a history among them, and is writable", function()
			local out = box_sh("cd && ls -A; test -s .bash_history && echo history; "
				.. "echo 'alias x=y' >> .bashrc && echo written")
			assert.are.equal(".bash_history\n.bash_logout\n.bashrc\n.profile\nhistory\nwritten\n", out)
		end)

		it("an unchanged dot file is not a written file; a changed one is", function()
			local d, rm = S.tmpdir()
			local _, err, code = run("--json", d .. "/r.json", "sh", "-c", "echo hi >> ~/.profile; cat ~/.bashrc >/dev/null")
			assert.are.equal(0, code, err)
			local r = cjson.decode(S.read(d .. "/r.json"))
			rm()
			local paths = {}
			for _, f in ipairs(r.files_dropped or {}) do paths[#paths + 1] = f.path end
			assert.are.same({ stdbox.user.home .. "/.profile" }, paths)
			-- typed as a file of the program's (the tree's own are not)
			assert.are.equal("text/plain", r.files_dropped[1].mime)
		end)
	end)

	-- Every place a sample reads to learn where it runs, each checked for
	-- a word that names the box.
	describe("no tell", function()
		local TELLS = {
			{ "the files of /etc", "cat /etc/passwd /etc/group /etc/hosts /etc/hostname /etc/nsswitch.conf"
				.. " /etc/resolv.conf /etc/os-release /etc/timezone /etc/machine-id" },
			{ "the environment", "env" },
			{ "the host name", "hostname; uname -a" },
			{ "the user", "id; whoami" },
			{ "the home's dot files", "cat ~/.bashrc ~/.profile ~/.bash_logout ~/.bash_history" },
			{ "the cgroups", "cat /proc/self/cgroup /proc/1/cgroup" },
			{ "pid 1's command line", "tr '\\0' ' ' < /proc/1/cmdline" },
			{ "the decoys", "cat /etc/shadow ~/.ssh/id_rsa ~/.aws/credentials", "--decoys" },
			{ "the file names of the tree", "find / -xdev 2>/dev/null; ls -a / /home ~ /work /tmp /dev" },
		}
		for _, t in ipairs(TELLS) do
			it(t[1] .. " name neither sbx nor a sandbox", function()
				local out = t[3] and box_sh(t[2], t[3]) or box_sh(t[2])
				assert.is_true(#out > 0, t[2])
				local low = out:lower()
				for _, word in ipairs { "sbxlua", "sandbox", "sbxdecoy", "decoy" } do
					assert.is_falsy(low:find(word, 1, true), t[1] .. " holds " .. word .. ":\n" .. out)
				end
				-- "sbx" as a word (random key material may hold the letters)
				assert.is_falsy(low:find("%f[%w]sbx%f[%W]"), t[1] .. " holds sbx:\n" .. out)
			end)
		end

		it("a decoy's marker is random per run and looks like its key material", function()
			local d, rm = S.tmpdir()
			local _, err, code = run("--decoys", "--json", d .. "/r1.json", "true")
			assert.are.equal(0, code, err)
			run("--decoys", "--json", d .. "/r2.json", "true")
			local r1 = cjson.decode(S.read(d .. "/r1.json"))
			local r2 = cjson.decode(S.read(d .. "/r2.json"))
			rm()
			for i, dc in ipairs(r1.decoys) do
				assert.is_truthy(dc.marker:match("^[a-z0-9]+$") and #dc.marker == 24, dc.marker)
				assert.are_not.equal(dc.marker, r2.decoys[i].marker)
			end
		end)
	end)

	describe("a sample's checks for a sandbox", function()
		local function explore(prog)
			local d, rm = S.tmpdir()
			local out, err, code = run("--explore", "--json", d .. "/r.json", prog)
			local r = cjson.decode(S.read(d .. "/r.json") or "null")
			rm()
			return r, out, err, code
		end

		it("are tagged detect_debug_environment and named T1497.001 in the behaviour", function()
			for _, prog in ipairs { "tests/techniques/T1497.001_sandbox-checks-2.py",
				"tests/techniques/T1497.001_sandbox-checks.sh" } do
				local r, _, err = explore(prog)
				assert.is_table(r, err)
				local b = r.behaviour
				local tags, ids = {}, {}
				for _, t in ipairs(b.tags) do tags[t] = true end
				for _, m in ipairs(b.mitre_attack_techniques) do ids[m.id] = m end
				assert.is_true(tags.detect_debug_environment, prog .. "\n" .. err)
				assert.is_table(ids["T1497.001"], prog .. "\n" .. err)
				assert.are.equal("sandbox_checks", ids["T1497.001"].rule)
			end
		end)

		it("are not what a program that only counts its CPUs does", function()
			local d, rm = S.tmpdir()
			local _, err, code = run("--explore", "--json", d .. "/r.json", "sh", "-c",
				"nproc; lscpu >/dev/null; /usr/bin/python3 -c 'import os; os.cpu_count()'; df / >/dev/null; cat /etc/os-release >/dev/null")
			local r = cjson.decode(S.read(d .. "/r.json") or "null")
			rm()
			assert.are.equal(0, code, err)
			for _, t in ipairs(r.behaviour.tags) do assert.are_not.equal("detect_debug_environment", t) end
			for _, m in ipairs(r.behaviour.mitre_attack_techniques) do assert.are_not.equal("T1497.001", m.id, err) end
		end)
	end)

	describe("uptime: a time namespace of the box's own", function()
		-- the host's CLOCK_BOOTTIME, in seconds
		local function host_uptime()
			return tonumber((S.read("/proc/uptime") or ""):match("^([%d.]+)"))
		end

		it("/proc/uptime, CLOCK_BOOTTIME, python3's time.monotonic() and uptime read as a host up for days", function()
			local lo, hi = stdbox.host.uptime[1], stdbox.host.uptime[2]
			assert.is_true(lo >= 86400 and hi > lo)
			local out = box_sh("cut -d' ' -f1 /proc/uptime; /usr/bin/python3 -c 'import time; "
				.. "print(time.monotonic()); print(time.clock_gettime(time.CLOCK_BOOTTIME))'; uptime")
			local up, mono, boot, days = out:match("^([%d.]+)\n([%d.]+)\n([%d.]+)\n.* up (%d+) days")
			assert.is_truthy(up, out)
			-- drawn in the range at the box's start; the run itself
			-- takes less than the wall clock (60 s) beyond it
			for _, v in ipairs { up, mono, boot } do
				assert.is_true(tonumber(v) >= lo and tonumber(v) <= hi + 60, out)
			end
			assert.is_true(tonumber(days) >= lo // 86400 and tonumber(days) <= hi // 86400, out)
			-- the host's own clock is elsewhere (this host has been up
			-- less than the range's start, or far more)
			local h = host_uptime()
			if h >= lo - 60 and h <= hi + 60 then
				return pending("this host's own uptime (" .. h .. " s) is inside the range")
			end
		end)

		it("two runs draw two uptimes; the host's clocks are untouched", function()
			local before = host_uptime()
			local a = tonumber((box_sh("cut -d' ' -f1 /proc/uptime")))
			local b = tonumber((box_sh("cut -d' ' -f1 /proc/uptime")))
			local after = host_uptime()
			assert.are_not.equal(math.floor(a), math.floor(b))
			assert.is_true(after >= before and after - before < 600, before .. " " .. after)
		end)

		it("without the table's range, the box's clocks are the host's", function()
			local saved = stdbox.host.uptime
			stdbox.host.uptime = false
			local spec = stdbox.build { prog = "true" }
			stdbox.host.uptime = saved
			assert.is_nil(spec.uptime)
			for _, bad in ipairs { -1, 315360001, "2d", 1.5 } do
				local ok, err = pcall(require("sbx").box, S.spec("true", { uptime = bad }))
				assert.is_false(ok)
				assert.matches("uptime", err)
			end
		end)
	end)

	describe("POSIX message queues: /dev/mqueue of the box's own IPC namespace", function()
		local HOST_MQ = "build/tests/mqueue"
		local MQ = "/work/mqueue"
		local RO = assert(require("sbx").realpath(HOST_MQ)) .. ":" .. MQ

		it("mq_open, mq_send, mq_receive and mq_unlink work; /dev/mqueue lists the queue", function()
			local out = box_sh(MQ .. " /jobs", "--ro", RO)
			assert.are.equal("mq_open ok\nmq_send ok\nmq_receive ok\nreceived: hello\nmq_getattr ok\n"
				.. "listing: jobs\nmq_close ok\nmq_unlink ok\n", out)
			out = box_sh("grep ' /dev/mqueue ' /proc/self/mountinfo | cut -d' ' -f5,6,8,9", "--ro", RO)
			assert.are.equal("/dev/mqueue rw,nosuid,nodev,noexec,relatime mqueue mqueue\n", out)
		end)

		it("the box's queues and the host's never meet", function()
			local name = ("/q%d%06d"):format(S.pid(), math.random(0, 999999))
			-- a queue of the host's, left there while the box runs
			local out = S.sh(HOST_MQ .. " " .. name .. " keep")
			assert.are.equal("mq_open ok\n", out)
			local inside = box_sh(MQ .. " " .. name .. " open || true; " .. MQ .. " " .. name .. "b keep",
				"--ro", RO)
			S.sh("/usr/bin/python3 -c 'import ctypes; ctypes.CDLL(None).mq_unlink(b\"" .. name .. "\")'")
			assert.are.equal("mq_open failed: No such file or directory\nmq_open ok\n", inside)
			-- the box's queue, left at its end, went with its namespace
			assert.are.equal("mq_open failed: No such file or directory\n",
				S.sh(HOST_MQ .. " " .. name .. "b open"))
		end)

		it("a box without its own IPC namespace gets no mqueue mount", function()
			local r = S.run("test -e /dev/mqueue && echo present || echo absent",
				{ namespaces = { "user", "mount", "pid", "uts" } })
			assert.are.equal("absent\n", r.stdout, r.stderr)
		end)
	end)
end)
