-- SPDX-License-Identifier: MIT
-- The network sink (--net sink): names resolve to the sink address, every
-- connect and datagram to a caught port is recorded with its first bytes,
-- and the box's namespace has nothing but lo and the one local route.
-- scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"
local sink = require "sbx.sink"
local sbx = require "sbx"
local core = require "sbx.core"

local run = S.runlua

-- the sink's lines of a verbose report, in order
local function sink_lines(err)
	local out = {}
	for l in err:gmatch("[^\n]*\n") do
		if l:find("^sandbox: dns: ") or l:find("^sandbox: traffic: ") or l:find("^sandbox: sink: ") then
			out[#out + 1] = l
		end
	end
	return table.concat(out)
end

local json_of = S.take_json

-- asks the resolver at 127.0.0.53 for each name's A record: prints the
-- rcode and the answer's address per name
local ASK = [[
import socket, struct, sys
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i, name in enumerate(sys.argv[1:]):
    q = struct.pack('>HHHHHH', i, 0x100, 1, 0, 0, 0)
    q += b''.join(bytes([len(l)]) + l.encode() for l in name.split('.')) + b'\0'
    u.sendto(q + struct.pack('>HH', 1, 1), ('127.0.0.53', 53))
    r, src = u.recvfrom(600)
    an = struct.unpack('>H', r[6:8])[0]
    print(name, r[3] & 15, socket.inet_ntoa(r[-4:]) if an else '-', src[0])
]]

local TCP = "import socket; s = socket.create_connection(('10.0.0.1', 4444)); "
	.. "s.sendall(b'hello\\x00\\xff box\\n'); s.close()"
local UDP = "import socket; u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); "
	.. "u.sendto(b'\\x12\\x34ping', ('8.8.8.8', 53))"

describe("the network sink [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	it("answers a name with the sink address and records the queries", function()
		local json = os.tmpname()
		local out, err, code = run("-v", "--net", "sink", "--json", json, "getent", "hosts", "evil.example")
		assert.are.equal("10.0.0.2        evil.example\n", out, err)
		assert.are.equal(0, code)
		assert.are.equal("sandbox: dns: evil.example AAAA -> none\n"
			.. "sandbox: dns: evil.example A -> 10.0.0.2\n", sink_lines(err))
		assert.truthy(err:find("\nsandbox: network: sink\n", 1, true))
		assert.truthy(("\n" .. err):find("\nsandbox: namespaces: user mount pid ipc net uts cgroup (verified)\n", 1, true))
		local t = json_of(json)
		assert.are.same({ { hostname = "evil.example", type = "AAAA", answer = "none", count = 1 },
			{ hostname = "evil.example", type = "A", answer = "10.0.0.2", count = 1 } }, t.sink.dns)
		assert.are.same({}, t.sink.traffic)
	end)

	it("records a TCP connect to any address with its first bytes", function()
		local json = os.tmpname()
		local _, err, code = run("-v", "--net", "sink", "--json", json, "python3", "-c", TCP)
		assert.are.equal(0, code, err)
		assert.are.equal("sandbox: traffic: tcp 10.0.0.1:4444 12 bytes: hello\\x00\\xff box\\n\n",
			sink_lines(err))
		local t = json_of(json)
		assert.are.same({ { protocol = "tcp", address = "10.0.0.1", port = 4444, bytes = 12,
			first_bytes = "hello\\x00\\xff box\\n",
			first_bytes_hex = "68656c6c6f00ff20626f780a" } }, t.sink.traffic)
	end)

	it("records a datagram to 8.8.8.8:53", function()
		local _, err, code = run("-v", "--net", "sink", "python3", "-c", UDP)
		assert.are.equal(0, code, err)
		assert.are.equal("sandbox: traffic: udp 8.8.8.8:53 6 bytes: \\x124ping\n", sink_lines(err))
	end)

	it("records a datagram to the resolver that is no query as traffic", function()
		local _, err, code = run("-v", "--net", "sink", "python3", "-c",
			"import socket; u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); "
			.. "u.sendto(b'\\x00not a query', ('127.0.0.53', 53))")
		assert.are.equal(0, code, err)
		assert.are.equal("sandbox: traffic: udp 127.0.0.53:53 12 bytes: \\x00not a query\n", sink_lines(err))
	end)

	it("caps what it records of one connection, and says how much came", function()
		local _, err, code = run("-v", "--net", "sink", "python3", "-c",
			"import socket; s = socket.create_connection(('192.0.2.7', 80)); "
			.. "s.sendall(b'A' * 100000); s.close()")
		assert.are.equal(0, code, err)
		assert.are.equal("sandbox: traffic: tcp 192.0.2.7:80 100000 bytes, first " .. sink.cap .. ": "
			.. ("A"):rep(sink.cap) .. "\n", sink_lines(err))
	end)

	it("shows the sink's lines only with --verbose", function()
		local _, err, code = run("--net", "sink", "getent", "hosts", "evil.example")
		assert.are.equal(0, code)
		assert.are.equal("sandbox: exit 0\n", err)
	end)

	it("leaves the box's namespace lo alone and one local route: nothing leaves", function()
		local out, err, code = run("--net", "sink", "/bin/sh", "-c",
			"cut -d: -f1 /proc/net/dev | tail -n +3; ip -4 route show table all; "
			.. "python3 -c \"import socket; print(socket.socket().connect_ex(('10.0.0.1', 9)))\"")
		assert.are.equal(0, code, err)
		assert.are.equal("    lo\n"
			.. "local default dev lo table local scope host \n"
			.. "local 127.0.0.0/8 dev lo table local proto kernel scope host src 127.0.0.1 \n"
			.. "local 127.0.0.1 dev lo table local proto kernel scope host src 127.0.0.1 \n"
			.. "broadcast 127.255.255.255 dev lo table local proto kernel scope link src 127.0.0.1 \n"
			.. "111\n", out)
	end)

	it("is absent without --net sink: connects fail as before", function()
		local out, err, code = run("/bin/sh", "-c",
			"getent hosts evil.example; echo $?; "
			.. "python3 -c \"import socket; print(socket.socket().connect_ex(('10.0.0.1', 4444)))\"")
		assert.are.equal(0, code, err)
		assert.are.equal("2\n101\n", out)
		assert.are.equal("sandbox: exit 0\n", err)
	end)

	it("takes ports beside the ones always caught, and refuses bad lists", function()
		local _, err, code = run("-v", "--net", "sink", "--sink-ports", "7777", "python3", "-c",
			"import socket; socket.create_connection(('10.9.9.9', 7777)).sendall(b'x'); "
			.. "socket.create_connection(('10.9.9.9', 4444)).sendall(b'y')")
		assert.are.equal(0, code, err)
		-- two listeners: the order of two connections both waiting is the
		-- supervisor's, so the lines are compared as a set
		local lines = {}
		for l in sink_lines(err):gmatch("[^\n]*\n") do lines[#lines + 1] = l end
		table.sort(lines)
		assert.are.equal("sandbox: traffic: tcp 10.9.9.9:4444 1 bytes: y\n"
			.. "sandbox: traffic: tcp 10.9.9.9:7777 1 bytes: x\n", table.concat(lines))
		_, err, code = run("--net", "sink", "--sink-ports", "80,x", "true")
		assert.are.equal(126, code)
		assert.are.equal("sbxlua: --sink-ports 80,x: expected ports 1 to 65535 separated by commas, not \"x\"\n", err)
		_, err, code = run("--sink-ports", "25", "true")
		assert.are.equal(126, code)
		assert.are.equal("sbxlua: --sink-ports: only with --net sink\n", err)
	end)

	it("keeps a connection open at most a short while, then records it", function()
		-- the program waits for the sink's close, whatever its cause
		local out, err, code = run("-v", "--net", "sink", "python3", "-c",
			"import socket; s = socket.create_connection(('10.1.2.3', 8080)); "
			.. "s.sendall(b'GET / HTTP/1.0\\r\\n'); print(s.recv(10))")
		assert.are.equal(0, code, err)
		assert.are.equal("b''\n", out)
		assert.are.equal("sandbox: traffic: tcp 10.1.2.3:8080 16 bytes: GET / HTTP/1.0\\r\\n\n", sink_lines(err))
	end)

	it("answers a whole HTTP request on any port, once; nothing else; names the sender", function()
		-- a request in two sends (the blank line and the body its
		-- Content-Length names come last), then one that never ends its
		-- headers: only the first is answered
		local r = assert(sbx.run { argv = { "/usr/bin/python3", "-c", [[
import socket
s = socket.create_connection(('10.0.0.9', 9000))
s.sendall(b'POST /up HTTP/1.1\r\nContent-Length: 3\r\n')
s.sendall(b'\r\nab')
s.sendall(b'c')
got = b''
while True:
    b = s.recv(100)
    if not b:
        break
    got += b
print(got.split(b'\r\n')[0].decode(), got.endswith(b'\r\n\r\n<html></html>\n'))
s.close()
t = socket.create_connection(('10.0.0.9', 9000))
t.sendall(b'GET / HTTP/1.1\r\nHost: x\r\n')
t.shutdown(socket.SHUT_WR)
print(t.recv(100))
]] }, sink = { ports = { 9000 } } })
		assert.are.equal("exit", r.outcome, r.stderr)
		assert.are.equal("HTTP/1.1 200 OK True\nb''\n", r.stdout)
		assert.are.equal(2, #r.sink)
		local a, b = r.sink[1], r.sink[2]
		assert.are.equal("POST /up HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc", a.data)
		assert.truthy(a.reply:find("^HTTP/1%.1 200 OK\r\n.*Connection: close\r\n\r\n"))
		assert.are.same({ "10.0.0.9", "10.0.0.9", 9000 }, { a.source, a.address, a.port })
		assert.is_true(a.source_port > 0 and a.source_port ~= b.source_port)
		assert.is_nil(b.reply)
		local c = sink.http(a)
		assert.are.same({ "POST", "http://10.0.0.9:9000/up", 3, true, true },
			{ c.method, c.url, c.body_size, c.complete, c.replied })
		assert.are.equal(core.sha256("abc"), c.body_sha256)
	end)

	it("answers NXDOMAIN by rule, through the core's spec", function()
		local r = assert(sbx.run { argv = { "/usr/bin/python3", "-c", ASK, "a.bad.example", "bad.example",
			"notbad.example", "ok.test" }, sink = { nxdomain = { "bad.example" }, ports = { 9000 } } })
		assert.are.equal("exit", r.outcome, r.stderr)
		assert.are.equal("a.bad.example 3 - 127.0.0.53\nbad.example 3 - 127.0.0.53\n"
			.. "notbad.example 0 10.0.0.2 127.0.0.53\nok.test 0 10.0.0.2 127.0.0.53\n", r.stdout)
		-- the sender's port is the kernel's choice
		for _, e in ipairs(r.sink) do
			assert.is_true(e.source_port > 0)
			e.source_port = nil
		end
		local function q(name, answer)
			return { kind = "dns", name = name, type = "A", answer = answer, source = "127.0.0.1",
				address = "127.0.0.53", count = 1 }
		end
		assert.are.same({ q("a.bad.example", "NXDOMAIN"), q("bad.example", "NXDOMAIN"),
			q("notbad.example", "10.0.0.2"), q("ok.test", "10.0.0.2") }, r.sink)
		assert.are.equal(0, r.sink_dropped)
	end)

	it("refuses a bad sink spec", function()
		local function bad(sk, pattern, extra)
			local spec = { argv = { "/bin/true" }, sink = sk }
			for k, v in pairs(extra or {}) do spec[k] = v end
			local ok, msg = pcall(core.box, spec)
			assert.is_false(ok, pattern)
			assert.matches(pattern, msg, 1, true)
		end
		bad("x", "field 'sink' must be a table")
		bad({ ports = 80 }, "field 'sink.ports' must be a list")
		bad({ nxdomain = "x" }, "field 'sink.nxdomain' must be a list")
		bad({ adress = "1.2.3.4" }, "unknown key 'adress'")
		bad({ address = "1.2.3" }, "field 'sink.address' must be an IPv4 address")
		bad({ ports = { 0 } }, "field 'sink.ports' must list ports 1 to 65535")
		bad({ ports = { 80, 80 } }, "port 80 twice")
		local many = {}
		for i = 1, 17 do many[i] = 1000 + i end
		bad({ ports = many }, "field 'sink.ports': at most 16")
		bad({ nxdomain = { "a\nb" } }, "field 'sink.nxdomain' must list names")
		bad({}, "sink needs the net namespace and lo", { net_lo = false })
		assert.has_error(function() sink.parse_ports(1) end)
		assert.are.same({ 25, 6667 }, sink.parse_ports("25,6667,25,80"))
	end)
end)
