-- SPDX-License-Identifier: MIT
-- A sample that floods the network sink before it acts (issue 37, "no
-- silent cap"): DNS, TCP, UDP and HTTP each have their own budget
-- (`sbx.sink.budget`), repeats of one query are one record with a count,
-- HTTP is answered after any budget is spent, and what a budget left out
-- is counted per kind and said by the report without --verbose.  Each
-- sample checks from inside the box what the sink answered it.
-- scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"
local cjson = require "cjson"
local sink = require "sbx.sink"
local report = require "sbx.report"

local run = S.runlua

local json_of = S.take_json

local lines_of = S.lines_with

-- The flooding sample: `dns N distinct|same`, `tcp N`, `udp N`, `http N`
-- (N requests, each answered), `hold N` (N connections opened and kept
-- open, silent), then `ask NAME` (its A record's answer)
-- and `get URL-PATH` (an HTTP request to 10.0.0.1:80; prints the
-- reply's status line); steps run in the order given.
local FLOOD = [[
import socket, struct, sys
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
u.settimeout(10)
def ask(i, name):
    q = struct.pack('>HHHHHH', i & 0xffff, 0x100, 1, 0, 0, 0)
    q += b''.join(bytes([len(l)]) + l.encode() for l in name.split('.')) + b'\0'
    u.sendto(q + struct.pack('>HH', 1, 1), ('127.0.0.53', 53))
    while True:
        r, _ = u.recvfrom(600)
        if r[:2] == q[:2]:
            return socket.inet_ntoa(r[-4:]) if r[7] else '-'
def talk(data):
    s = socket.create_connection(('10.0.0.1', 80), timeout=10)
    s.sendall(data)
    s.shutdown(socket.SHUT_WR)
    got = b''
    while True:
        b = s.recv(4096)
        if not b:
            break
        got += b
    s.close()
    return got
a = sys.argv[1:]
while a:
    what, arg = a[0], a[1]
    a = a[2:]
    if what == 'dns':
        n, how = int(arg), a[0]
        a = a[1:]
        bad = sum(ask(i, 'flood.example' if how == 'same' else 'f%d.flood.example' % i) != '10.0.0.2'
                  for i in range(n))
        print('dns', n, 'unanswered', bad)
    elif what == 'tcp':
        bad = sum(talk(b'x%d' % i) != b'' for i in range(int(arg)))
        print('tcp', arg, 'answered', bad)
    elif what == 'hold':
        held = [socket.create_connection(('10.0.0.1', 4444), timeout=10) for i in range(int(arg))]
        print('holding', len(held))
    elif what == 'udp':
        d = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        for i in range(int(arg)):
            d.sendto(b'd%d' % i, ('10.0.0.1', 4444))
        print('udp', arg)
    elif what == 'http':
        ok = sum(talk(b'GET /f%d HTTP/1.1\r\nHost: flood.example\r\n\r\n' % i).startswith(b'HTTP/1.1 200 OK')
                 for i in range(int(arg)))
        print('http', arg, 'answered', ok)
    elif what == 'ask':
        print(arg, ask(0, arg))
    elif what == 'get':
        got = talk(b'GET ' + arg.encode() + b' HTTP/1.1\r\nHost: c2.example\r\n\r\n')
        print(got.split(b'\r\n')[0].decode(), got.endswith(b'<html></html>\n'))
]]

local function flood(...)
	local json = os.tmpname()
	local out, err, code = run("--net", "sink", "--json", json, "python3", "-c", FLOOD, ...)
	assert.are.equal(0, code, err)
	return out, err, json_of(json)
end

-- Debian's python3 and its jsonschema (as tests/json_spec.lua)
local PY = "/usr/bin/python3"
local _, no_schema = S.sh(PY .. " -c 'import jsonschema' 2>/dev/null")
local it_schema = no_schema == 0 and it
	or function(name) pending(name .. " (needs python3-jsonschema: /usr/bin/python3 cannot import jsonschema)") end

-- the checker's complaints of text against docs/schema/run.schema.json
local function invalid(text)
	local f = os.tmpname()
	local h = assert(io.open(f, "w"))
	h:write(text)
	h:close()
	local out = S.sh(PY .. " tests/schema_check.py docs/schema run.schema.json <" .. f .. " 2>&1")
	os.remove(f)
	return out
end

-- the sink's requests for path in t (the JSON)
local function requests(t, path)
	return S.select(t.sink.http, function(h) return h.url == "http://c2.example" .. path end)
end

describe("the network sink under a flood [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	it("has a budget per kind, stated", function()
		assert.are.same({ dns = 4096, tcp = 1024, udp = 1024, http = 1024 }, sink.budget)
	end)

	it("records and answers an HTTP request after DNS floods past its budget", function()
		local n = sink.budget.dns + 904
		local out, err, t = flood("dns", tostring(n), "distinct", "get", "/after-dns")
		-- from inside: every query answered, the request answered with HTTP
		assert.are.equal(("dns %d unanswered 0\nHTTP/1.1 200 OK True\n"):format(n), out)
		assert.are.equal(sink.budget.dns, #t.sink.dns)
		assert.are.same({ 904, 0, 0, 0, 904 }, { t.sink.dropped_dns, t.sink.dropped_tcp, t.sink.dropped_udp,
			t.sink.dropped_http, t.sink.dropped })
		local r = requests(t, "/after-dns")
		assert.are.equal(1, #r)
		assert.is_true(r[1].replied)
		-- said without --verbose
		assert.are.equal("sandbox: note: sink: 904 DNS queries beyond the budget were answered but not recorded\n",
			lines_of(err, "sandbox: note: sink: "))
	end)

	it("keeps 3000 repeats of one query as one record with its count, nothing dropped", function()
		local out, err, t = flood("dns", "3000", "same", "ask", "marker.example")
		assert.are.equal("dns 3000 unanswered 0\nmarker.example 10.0.0.2\n", out)
		assert.are.same({ { hostname = "flood.example", type = "A", answer = "10.0.0.2", count = 3000 },
			{ hostname = "marker.example", type = "A", answer = "10.0.0.2", count = 1 } }, t.sink.dns)
		assert.are.equal(0, t.sink.dropped)
		assert.are.equal("", lines_of(err, "sandbox: note: sink: "))
		-- the verbose line says how many
		local _, verr = run("-v", "--net", "sink", "python3", "-c", FLOOD, "dns", "5", "same")
		assert.are.equal("sandbox: dns: flood.example A -> 10.0.0.2 (5 times)\n", lines_of(verr, "sandbox: dns: "))
	end)

	it("records a name looked up after a TCP flood, and answers HTTP after it", function()
		local n = sink.budget.tcp + 76
		local out, err, t = flood("tcp", tostring(n), "ask", "marker.example", "get", "/after-tcp")
		assert.are.equal(("tcp %d answered 0\nmarker.example 10.0.0.2\nHTTP/1.1 200 OK True\n"):format(n), out)
		assert.are.same({ { hostname = "marker.example", type = "A", answer = "10.0.0.2", count = 1 } }, t.sink.dns)
		assert.are.equal(1, #requests(t, "/after-tcp"))
		assert.are.same({ 0, 76, 0, 0, 76 }, { t.sink.dropped_dns, t.sink.dropped_tcp, t.sink.dropped_udp,
			t.sink.dropped_http, t.sink.dropped })
		assert.are.equal(sink.budget.tcp + 1, #t.sink.traffic)
		assert.are.equal("sandbox: note: sink: 76 TCP connections beyond the budget were accepted but not recorded\n",
			lines_of(err, "sandbox: note: sink: "))
	end)

	it("answers HTTP while a flood holds more connections open than the sink reads at once", function()
		local out, err, t = flood("hold", "40", "get", "/after-hold")
		assert.are.equal("holding 40\nHTTP/1.1 200 OK True\n", out)
		assert.are.equal(1, #requests(t, "/after-hold"))
		-- the held ones are recorded (ended early or at the box's end)
		assert.are.equal(41, #t.sink.traffic)
		assert.are.equal(0, t.sink.dropped)
		assert.are.equal("", lines_of(err, "sandbox: note: sink: "))
	end)

	it("records the connections still queued at the box's end, not only those accepted", function()
		-- the sample connects while sbxlua is stopped (SIGSTOP): the
		-- kernel completes each connection into the listener's queue,
		-- which nothing accepts until sbxlua goes on.  Where init does
		-- not wait for sbxlua at its end (no proc connector: the
		-- unprivileged caller) the box has ended by then, and without
		-- the end's drain 2 of the 12 were recorded; where it waits (as
		-- root), the loop takes most of them before the end
		local d, rm = S.tmpdir()
		os.execute("chmod -R a+rwX " .. S.q(d))
		local n, mark = 12, "q" .. S.unique()
		local prefix = d .. "/run"
		S.start_run(prefix, "--net", "sink", "--rw", d .. ":/work", "--json", d .. "/r.json", "python3", "-c", ([[
import os, socket, time
open('/work/ready', 'w').close()
while not os.path.exists('/work/go'):
    time.sleep(0.01)
held = [socket.create_connection(('10.0.0.1', 80), timeout=10) for i in range(%d)]
open('/work/done', 'w').close()
# %s
]]):format(n, mark))
		assert.is_true(S.wait_for(d .. "/ready", prefix .. ".status"), S.read(prefix .. ".err"))
		local pid
		for _, p in ipairs(S.holding(mark)) do
			if (S.read("/proc/" .. p .. "/cmdline") or ""):match("^[^%z]*sbxlua%z") then pid = p end
		end
		assert.truthy(pid, "sbxlua's pid")
		os.execute("kill -STOP " .. pid)
		S.write(d .. "/go", "")
		local done = S.wait_for(d .. "/done", prefix .. ".status")
		-- the sample gone (its connections queued, none accepted)
		for _ = 1, 500 do
			local box = false
			for _, p in ipairs(S.holding(mark)) do
				if (S.read("/proc/" .. p .. "/cmdline") or ""):match("^python3%z") then box = true end
			end
			if not box then break end
			os.execute("sleep 0.01")
		end
		-- init's end, where it does not wait for sbxlua
		os.execute("sleep 0.5; kill -CONT " .. pid)
		assert.is_true(done, S.read(prefix .. ".err"))
		assert.is_true(S.wait_for(prefix .. ".status", prefix .. ".status"), "the run did not end")
		local t = json_of(d .. "/r.json")
		rm()
		local to80 = 0
		for _, c in ipairs(t.sink.traffic) do
			if c.port == 80 then to80 = to80 + 1 end
		end
		assert.are.equal(n, to80)
		assert.are.equal(0, t.sink.dropped)
	end)

	it("answers every HTTP request past the HTTP budget and counts the rest", function()
		local n = sink.budget.http + 6
		local out, err, t = flood("http", tostring(n), "get", "/last")
		assert.are.equal(("http %d answered %d\nHTTP/1.1 200 OK True\n"):format(n, n), out)
		assert.are.equal(sink.budget.http, #t.sink.http)
		assert.are.same({ 0, 0, 0, 7, 7 }, { t.sink.dropped_dns, t.sink.dropped_tcp, t.sink.dropped_udp,
			t.sink.dropped_http, t.sink.dropped })
		assert.are.equal("sandbox: note: sink: 7 HTTP requests beyond the budget were answered but not recorded\n",
			lines_of(err, "sandbox: note: sink: "))
	end)

	it("records a name looked up after a datagram flood", function()
		-- the kernel drops what overflows the listener's buffer before the
		-- sink reads it: the records and the count are at most what was sent
		local n = sink.budget.udp + 500
		local out, err, t = flood("udp", tostring(n), "ask", "marker.example")
		assert.are.equal(("udp %d\nmarker.example 10.0.0.2\n"):format(n), out)
		assert.are.same({ { hostname = "marker.example", type = "A", answer = "10.0.0.2", count = 1 } }, t.sink.dns)
		assert.is_true(#t.sink.traffic <= sink.budget.udp)
		assert.is_true(#t.sink.traffic + t.sink.dropped_udp <= n)
		assert.are.equal(t.sink.dropped_udp, t.sink.dropped)
		if t.sink.dropped_udp > 0 then
			assert.are.equal(("sandbox: note: sink: %s datagrams beyond the budget were received but not recorded\n")
				:format(report.thousands(t.sink.dropped_udp)), lines_of(err, "sandbox: note: sink: "))
		end
	end)

	it("marks a record cut at the cap, with the length the sink read", function()
		local json = os.tmpname()
		local out, err, code = run("-v", "--net", "sink", "--json", json, "python3", "-c", [[
import socket
s = socket.create_connection(('192.0.2.7', 80))
s.sendall(b'POST /up HTTP/1.1\r\nContent-Length: 100000\r\n\r\n' + b'A' * 100000)
s.shutdown(socket.SHUT_WR)
got = b''
while True:
    b = s.recv(4096)
    if not b:
        break
    got += b
print(got.split(b'\r\n')[0].decode())
]])
		assert.are.equal(0, code, err)
		assert.are.equal("HTTP/1.1 200 OK\n", out)
		local head = "POST /up HTTP/1.1\\r\\nContent-Length: 100000\\r\\n\\r\\n"
		local total = 100000 + #"POST /up HTTP/1.1\r\nContent-Length: 100000\r\n\r\n"
		assert.are.equal(("sandbox: traffic: tcp 192.0.2.7:80 %d bytes, first %d: %s%s\n"):format(total, sink.cap,
			head, ("A"):rep(sink.cap - #"POST /up HTTP/1.1\r\nContent-Length: 100000\r\n\r\n")),
			lines_of(err, "sandbox: traffic: "))
		local t = json_of(json)
		assert.are.same({ total, true }, { t.sink.traffic[1].bytes, t.sink.traffic[1].cut })
		local h = t.sink.http[1]
		assert.are.same({ total, true, true }, { h.bytes, h.cut, h.replied })
		-- a record that fits is not marked
		assert.are.equal(0, t.sink.dropped)
	end)

	it_schema("under --explore: the note in the report, the counters in a valid JSON", function()
		local json = os.tmpname()
		-- one name, then distinct names past the budget, then the one
		-- name again: its repeats are its record's, past the budget too
		local n = sink.budget.dns - 1 + 2744
		local out, err, code = run("--explore", "--json", json, "python3", "-c", FLOOD, "dns", "30", "same",
			"dns", tostring(n), "distinct", "dns", "30", "same", "get", "/explored")
		local text = assert(S.read(json))
		os.remove(json)
		assert.are.equal(0, code, err)
		assert.are.equal(("dns 30 unanswered 0\ndns %d unanswered 0\ndns 30 unanswered 0\nHTTP/1.1 200 OK True\n")
			:format(n), out)
		assert.truthy(err:find("\nsandbox: note: sink: 2,744 DNS queries beyond the budget were answered but "
			.. "not recorded\n", 1, true), err)
		assert.are.equal("", invalid(text))
		local t = cjson.decode(text)
		assert.are.same({ 2744, 2744 }, { t.sink.dropped_dns, t.sink.dropped })
		assert.are.equal(sink.budget.dns, #t.sink.dns)
		assert.are.same({ "flood.example", 60 }, { t.sink.dns[1].hostname, math.tointeger(t.sink.dns[1].count) })
		assert.are.equal(1, #requests(t, "/explored"))
	end)

	it("formats counts with thousands separators", function()
		assert.are.same({ "0", "999", "1,000", "2,744", "1,234,567" },
			{ report.thousands(0), report.thousands(999), report.thousands(1000), report.thousands(2744),
				report.thousands(1234567) })
		assert.has_error(function() report.thousands("x") end)
	end)
end)
