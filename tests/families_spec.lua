-- SPDX-License-Identifier: MIT
-- What Linux malware families do (IoT bots, miners, worms, lockers), as
-- facts and rules: the analysis box's records of a process naming itself
-- (prctl PR_SET_NAME: the name and argv[0] as its memory holds it) and of
-- a raw socket asked for, checked against what the kernel told the
-- process (tests/progs/selfname.c); sbx.facts' proc_reads, renames,
-- raw_sockets, a connect's count and the sink's first bytes; and the
-- rules' edges, where a benign program must not be named.  The corpus's
-- own samples (tests/techniques/*.c) are run by tests/techniques_spec.lua.
-- scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"
local facts = require "sbx.facts"
local verdict = require "sbx.verdict"

local SELFNAME = "build/tests/selfname"

-- the events of kind `syscall` a run of selfname made, and its output
local function selfname(...)
	local out, err, code, res = S.json_run("--explore", SELFNAME, ...)
	assert.is_table(res, err)
	local calls = {}
	for _, e in ipairs(res.events) do
		if e.kind == "syscall" and (e.syscall == "prctl" or e.syscall == "socket") then calls[#calls + 1] = e end
	end
	return calls, out, code
end

-- the rule of the library named name
local RULES = {}
for _, r in ipairs(assert(verdict.defaults())) do RULES[r.name] = r end

-- the rule's finding on a run of events (and sink records), or nil
local function finding(name, run)
	run.events = run.events or {}
	local F = facts.of(run)
	local rule = assert(RULES[name], name)
	return rule.fn(run, F), F
end

local function exec(pid, path, argv)
	return { kind = "exec", pid = pid, ppid = 1, path = path, argv = argv, answer = "allow", cwd = "/work" }
end

local function connect(pid, addr, count)
	return { kind = "connect", pid = pid, ppid = 1, family = "inet", addr = addr, protocol = "tcp",
		answer = "allow", syscall = "connect", count = count }
end

local function traffic(port, bytes, n)
	local t = {}
	for i = 1, n do
		t[i] = { protocol = "tcp", address = "10.0.0.2", port = port, bytes = #bytes, first_bytes = bytes }
	end
	return t
end

describe("what the supervisor reads of a process naming itself [" .. S.priv .. "]", function()
	it("a name of 15 bytes against an unmapped page: the 15 the kernel took", function()
		local calls, out, code = selfname("edge")
		assert.are.equal(0, code)
		assert.truthy(out:find("prctl 0\ncomm EDGE15BYTESNAME\n", 1, true), out)
		assert.are.equal(1, #calls)
		assert.are.equal("EDGE15BYTESNAME", calls[1].path)
		assert.are.equal("/work/selfname", calls[1].to)
	end)

	it("a name at an unmapped address: no name, the kernel's EFAULT inside", function()
		local calls, out = selfname("fault")
		assert.truthy(out:find("prctl -1 Bad address", 1, true), out)
		assert.are.equal(1, #calls)
		assert.is_nil(calls[1].path)
	end)

	it("argv[0] overwritten with no NUL: read cut, never past its bound", function()
		local calls, out = selfname("flood" .. ("x"):rep(3000))
		assert.truthy(out:find("comm flooded", 1, true), out)
		assert.are.equal("flooded", calls[1].path)
		assert.truthy(calls[1].to:find("^A+$"), calls[1].to)
		assert.is_true(#calls[1].to <= 511, tostring(#calls[1].to))
	end)

	it("a raw socket with flags in its type is recorded; AF_PACKET is refused and named", function()
		local calls, out = selfname("raw")
		assert.truthy(out:find("packet Address family not supported", 1, true), out)
		assert.are.equal(2, #calls)
		assert.are.same({ "inet", "raw", "allow" }, { calls[1].family, calls[1].protocol, calls[1].answer })
		assert.are.same({ "raw", "deny", "EAFNOSUPPORT" }, { calls[2].protocol, calls[2].answer, calls[2].errno })
		-- the kernel's own answer to the inet one (EPERM without CAP_NET_RAW
		-- in the box's network namespace) is the process's, not the event's
		assert.truthy(out:find("^inet ") ~= nil, out)
	end)
end)

describe("sbx.facts of families [" .. S.priv .. "]", function()
	it("proc_reads: other processes' entries, not the reader's own nor /proc/self", function()
		local F = facts.of { events = {
			exec(2, "/work/bot", { "/work/bot" }),
			{ kind = "open", pid = 2, ppid = 1, path = "/proc/2/cmdline", flags = 0, answer = "allow" },
			{ kind = "open", pid = 2, ppid = 1, path = "/proc/self/exe", flags = 0, answer = "allow" },
			{ kind = "open", pid = 2, ppid = 1, path = "/proc/7/fd", flags = 0, answer = "allow" },
			{ kind = "open", pid = 2, ppid = 1, path = "/proc/8", flags = 0, answer = "allow" },
			{ kind = "open", pid = 2, ppid = 1, path = "/proc/9/task/9/comm", flags = 0, answer = "allow" },
		} }
		assert.are.same({ { pid = 7, what = "fd", by = 2, image = "/work/bot" },
			{ pid = 8, what = "", by = 2, image = "/work/bot" } }, F.proc_reads)
	end)

	it("renames: the name, argv[0] now and at the exec; a prctl without a name is none", function()
		local F = facts.of { events = {
			exec(2, "/work/bot", { "./bot", "x" }),
			{ kind = "syscall", syscall = "prctl", pid = 2, ppid = 1, path = "sshd", to = "/usr/sbin/sshd",
				answer = "allow" },
			{ kind = "syscall", syscall = "prctl", pid = 2, ppid = 1, to = "./bot", answer = "allow" },
		} }
		assert.are.same({ { pid = 2, name = "sshd", argv0 = "/usr/sbin/sshd", exec_argv0 = "./bot",
			image = "/work/bot" } }, F.renames)
	end)

	it("a folded connect's count, the sink's first bytes", function()
		local F = facts.of { events = { connect(2, "10.0.0.2:23", 6) },
			sink = { traffic = traffic(23, "\\x00\\x01", 1) } }
		assert.are.equal(6, F.connects[1].count)
		assert.are.equal("\\x00\\x01", F.traffic[1].first_bytes)
	end)
end)

describe("the families' rules at their edges [" .. S.priv .. "]", function()
	it("T1110: a C2's reconnects with a binary hello to port 23 are no guesses; text logins are", function()
		local c2 = { events = { connect(2, "10.0.0.2:23", 6) },
			sink = { traffic = traffic(23, "\\x00\\x00\\x00\\x01\\x04bot", 6) } }
		assert.is_nil((finding("brute_force", c2)))
		assert.truthy((finding("service_port_other_protocol", c2)))
		local guesses = { events = { connect(2, "10.0.0.2:23", 6) },
			sink = { traffic = traffic(23, "root\\r\\nadmin\\r\\n", 6) } }
		assert.truthy((finding("brute_force", guesses)))
		assert.is_nil((finding("service_port_other_protocol", guesses)))
		-- nothing seen of the bytes (no sink, or a client waiting for a
		-- greeting): the connects count, as before
		assert.truthy((finding("brute_force", { events = { connect(2, "10.0.0.2:21", 5) } })))
		-- one connection to a service port is no guess
		assert.is_nil((finding("brute_force", { events = { connect(2, "10.0.0.2:22", 1) } })))
	end)

	it("T1571: an SSH client's banner is SSH; anything else to port 22 is not", function()
		assert.is_nil((finding("service_port_other_protocol", { sink = { traffic = traffic(22, "SSH-2.0-x\\r\\n", 1) } })))
		assert.truthy((finding("service_port_other_protocol", { sink = { traffic = traffic(22, "hello\\n", 1) } })))
	end)

	it("T1036.011: a thread's name or a title that keeps the program's name is not masquerading", function()
		local function renamed(argv0, name, now)
			return finding("process_renamed", { events = { exec(2, "/usr/sbin/sshd", { argv0 }),
				{ kind = "syscall", syscall = "prctl", pid = 2, ppid = 1, path = name, to = now, answer = "allow" } } })
		end
		assert.is_nil((renamed("/usr/sbin/sshd", "worker-1", "/usr/sbin/sshd")))
		assert.is_nil((renamed("sshd", "sshd", "sshd: dana [priv]")))
		assert.truthy((renamed("./x", "x", "[kworker/0:1]")))
		assert.truthy((renamed("./x", "kworker/0:1", "./x")))
		assert.truthy((renamed("./x", "x", "/usr/sbin/httpd")))
	end)

	it("T1480.002: a loopback server that reaches nowhere holds no lock", function()
		local bind = { kind = "bind", pid = 2, ppid = 1, family = "inet", addr = "127.0.0.1:8000", protocol = "tcp",
			answer = "allow", syscall = "bind" }
		assert.is_nil((finding("port_lock", { events = { exec(2, "/usr/bin/python3", { "python3" }), bind } })))
		assert.truthy((finding("port_lock", { events = { exec(2, "/work/bot", { "bot" }), bind,
			connect(2, "10.0.0.2:23") } })))
		-- the reach is the same process's
		assert.is_nil((finding("port_lock", { events = { exec(2, "/work/srv", { "srv" }), bind,
			exec(3, "/usr/bin/curl", { "curl" }), connect(3, "10.0.0.2:80") } })))
	end)

	it("T1489: a kill of a process whose /proc was never read, or by kill(1), is not a killer's", function()
		local sig = { kind = "signal", pid = 2, ppid = 1, target = 5, signal = 9, signame = "SIGKILL",
			answer = "allow", syscall = "kill" }
		local read5 = { kind = "open", pid = 2, ppid = 1, path = "/proc/5/exe", flags = 0, answer = "allow" }
		assert.is_nil((finding("service_stop", { events = { exec(2, "/work/bot", { "bot" }), sig } })))
		assert.truthy((finding("service_stop", { events = { exec(2, "/work/bot", { "bot" }), read5, sig } })))
		assert.is_nil((finding("service_stop", { events = { exec(2, "/usr/bin/kill", { "kill", "5" }), read5, sig } })))
	end)

	it("T1486: git's lock files renamed back and a compressor's .gz are not a locker's", function()
		local function open(path, flags) return { kind = "open", pid = 2, ppid = 1, path = path, flags = flags,
			answer = "allow" } end
		local function del(path) return { kind = "delete", pid = 2, ppid = 1, path = path, answer = "allow",
			syscall = "unlink" } end
		local locker, gz = { exec(2, "/work/lock", { "lock" }) }, { exec(2, "/usr/bin/gzip", { "gzip" }) }
		for i = 1, 3 do
			local p = "/home/dana/f" .. i
			for _, l in ipairs { locker, gz } do
				l[#l + 1] = open(p, 0)
				l[#l + 1] = open(p .. (l == gz and ".gz" or ".lockd"), 577)
				l[#l + 1] = del(p)
			end
		end
		assert.truthy((finding("encrypted_for_impact", { events = locker })))
		assert.is_nil((finding("encrypted_for_impact", { events = gz })))
	end)

	it("T1496.001: stratum in the first bytes on any port; an ordinary JSON-RPC call is not", function()
		assert.truthy((finding("pool_protocol",
			{ sink = { traffic = traffic(4444, '{"id":1,"method":"mining.subscribe","params":[]}\\n', 1) } })))
		assert.is_nil((finding("pool_protocol",
			{ sink = { traffic = traffic(8080, '{"id":1,"method":"getblock","params":[]}\\n', 1) } })))
	end)

	it("T1071: an IRC registration on any port; a web request that names JOIN is none", function()
		assert.truthy((finding("irc_c2",
			{ sink = { traffic = traffic(443, "NICK a1\\r\\nUSER a1 0 * :a\\r\\n", 1) } })))
		assert.is_nil((finding("irc_c2",
			{ sink = { traffic = traffic(80, "GET /JOIN%20#x HTTP/1.1\\r\\nHost: a\\r\\n", 1) } })))
	end)

	it("T1046: ping's raw socket is its job", function()
		local raw = { kind = "syscall", syscall = "socket", pid = 2, ppid = 1, family = "inet", protocol = "raw",
			answer = "allow" }
		assert.is_nil((finding("port_scan", { events = { exec(2, "/usr/bin/ping", { "ping" }), raw } })))
		assert.truthy((finding("port_scan", { events = { exec(2, "/work/scan", { "scan" }), raw } })))
	end)
end)
