-- SPDX-License-Identifier: MIT
-- The JSON outputs: one encoder (sbx.json), `--json -`, one shape per fact,
-- and real outputs of run.lua --json and batch.lua validated against
-- docs/schema/ by Debian's python3-jsonschema (tests/schema_check.py).
-- scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"
local json = require "sbx.json"
local cjson = require "cjson"

-- Debian's python3 by its path: another python3 first on PATH may carry
-- another jsonschema, or none
local PY = "/usr/bin/python3"
-- sbxlua by an absolute path, for a command run in another directory
local BIN = S.bin:sub(1, 1) == "/" and S.bin or os.getenv("PWD") .. "/" .. S.bin
local _, no_schema = S.sh(PY .. " -c 'import jsonschema' 2>/dev/null")
local it_schema = no_schema == 0 and it
	or function(name) pending(name .. " (needs python3-jsonschema: /usr/bin/python3 cannot import jsonschema)") end

-- Validates each line of text against docs/schema/NAME; returns the
-- checker's output and status.
local function validate(text, name)
	local f = os.tmpname()
	local h = assert(io.open(f, "w"))
	h:write(text)
	h:close()
	local out, code = S.sh(PY .. " tests/schema_check.py docs/schema " .. name .. " <" .. f .. " 2>&1")
	os.remove(f)
	return out, code
end

-- A hostile program's run: names it chose (a quote, a newline, a byte
-- that is not UTF-8), a chmod, a unix socket's connect, a lookup and a
-- TCP connect through the sink.
local HOSTILE = [[
import os, socket
open('/work/q"\n\\x', 'w').write('a')
open(b'/tmp/\xff\xfe', 'w').write('b')
open('/tmp/m', 'w').write('c')
os.chmod('/tmp/m', 0o640)
u = socket.socket(socket.AF_UNIX)
try: u.connect('/run/"x\n.sock')
except OSError: pass
try:
    socket.gethostbyname('c2.example.net')
    s = socket.create_connection(('10.0.0.7', 4444), timeout=5); s.sendall(b'hi'); s.close()
except OSError: pass
]]

describe("JSON [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	describe("sbx.json", function()
		it("sorts keys, writes [] for an empty table and {} for one marked an object", function()
			assert.are.equal('{"a":[],"b":{},"c":[1,2,{"x":true,"y":false}]}',
				json.encode { c = { 1, 2, { y = false, x = true } }, b = json.object(), a = {} })
			assert.are.equal("[]", json.encode {})
			assert.are.equal("{}", json.encode(json.object {}))
			assert.are.equal('{"1":"a","k":2}', json.encode { "a", k = 2 })
		end)

		it("writes integers as integers, a NaN or an infinity as null", function()
			assert.are.equal("[1125899906842624,-3,0.5,3,null,null]",
				json.encode { 1 << 50, -3, 0.5, 3.0, 0 / 0, math.huge })
		end)

		it("escapes what JSON needs and nothing else (no \\/)", function()
			local s = '/a"b\\c\n\t\1\127é'
			local text = json.encode(s)
			assert.are.equal('"/a\\"b\\\\c\\n\\t\\u0001\\u007fé"', text)
			assert.are.equal(s, cjson.decode(text))
		end)

		it("escapes every byte as lua-cjson does, but for /", function()
			for b = 0, 255 do
				local s = "a" .. string.char(b) .. "/"
				assert.are.equal((cjson.encode(s):gsub("\\/", "/")), json.encode(s), b)
			end
			local long = ("\0\255\"x"):rep(5000) -- past the text's first growth
			assert.are.equal((cjson.encode(long):gsub("\\/", "/")), json.encode(long))
		end)

		it("writes each float as the shortest text that reads back as it", function()
			for _, x in ipairs { 0.1, 1 / 3, 2 ^ 53, 2 ^ 63, -2 ^ 70, 1e300, 5e-324, 123456789012345.67,
				9007199254740993.0, 100.5, -0.0, 2 ^ 53 - 1 } do
				local text = json.encode(x)
				assert.are.equal(x, tonumber(text), text)
				assert.is_nil(text:find("%.%d*0e") or text:find("%.%d-0$"), text)
			end
			assert.are.equal("[0,9007199254740991,1e+300,0.1]", json.encode { -0.0, 2 ^ 53 - 1, 1e300, 0.1 })
		end)

		it("orders keys as Lua orders strings, a key that is no string by its text", function()
			assert.are.equal('{"":5,"B":6,"a":4,"b":2,"b\\u0000":3,"b\\u0000a":1}',
				json.encode { ["b\0a"] = 1, b = 2, ["b\0"] = 3, a = 4, [""] = 5, B = 6 })
			assert.are.equal('{"0":"zero","1":"one","1.5":1}', json.encode { [0] = "zero", [1] = "one", [1.5] = 1 })
			assert.are.equal('[null,"x"]', json.encode { print, "x" })
		end)

		it("writes a proxy (a frozen request) as pairs and indexing read it", function()
			local pipeline = require "sbx.pipeline"
			local f = pipeline.freeze { a = 1, b = { 1, 2 }, c = pipeline.freeze { 3, 4 } }
			assert.are.equal('{"a":1,"b":[1,2],"c":[3,4]}', json.encode(f))
			assert.are.equal('[[],{"x":{}}]', json.encode { pipeline.freeze {}, pipeline.freeze { x = json.object() } })
			-- its own fields only, where it has no __pairs
			assert.are.equal('{"z":1}', json.encode(setmetatable({ z = 1 }, { __index = { y = 2 } })))
			-- a __pairs that fails is the caller's error, not a crash
			local ok, msg = pcall(json.encode, setmetatable({}, { __pairs = function() error("no pairs", 0) end }))
			assert.is_false(ok)
			assert.are.equal("no pairs", msg)
		end)

		it("encodes a value nested 200,000 deep (a process chain), and refuses a cycle", function()
			local t = {}
			local c = t
			for _ = 1, 200000 do
				c.k = {}
				c = c.k
			end
			local text = json.encode(t)
			assert.are.equal(200000 * 6 + 2, #text)
			assert.are.equal('{"k":{"k":{}', text:sub(1, 11) .. "}")
			local cyc = {}
			cyc[1] = cyc
			local ok, msg = pcall(json.encode, cyc)
			assert.is_false(ok)
			assert.truthy(tostring(msg):find("nested too deep", 1, true), msg)
			-- the encoder still works after the error
			assert.are.equal('[1]', json.encode { 1 })
		end)

		it("refuses a mark on what is not a table", function()
			assert.has_error(function() json.object("x") end, "bad argument #1 to 'object' (table expected, got string)")
		end)
	end)

	describe("run.lua --json", function()
		it("--json - writes only the JSON on stdout, the program's own on stderr, no file named -", function()
			local d, rm = S.tmpdir()
			local out, code = S.sh("cd " .. S.q(d) .. " && " .. S.q(BIN)
				.. " run.lua --json - /bin/echo hello 2>" .. S.q(d .. "/.err") .. " </dev/null")
			local err = S.read(d .. "/.err")
			local names = S.sh("ls -A " .. S.q(d))
			rm()
			assert.are.equal(0, code)
			assert.are.equal(".err\n", names)
			assert.are.equal(0, cjson.decode(out).exit_code)
			assert.are.equal("hello\nsandbox: exit 0\n", err)
		end)

		it("--report - writes the report on stdout too, the program's output on stderr, no file named -", function()
			local d, rm = S.tmpdir()
			local out, code = S.sh("cd " .. S.q(d) .. " && " .. S.q(BIN)
				.. " run.lua --report - /bin/echo hello 2>/dev/null </dev/null")
			local names = S.sh("ls -A " .. S.q(d))
			rm()
			assert.are.same({ "sandbox: exit 0\n", 0, "" }, { out, code, names })
		end)

		it_schema("a hostile program's result: one shape per fact, valid against run.schema.json", function()
			local j = os.tmpname()
			local _, err, code = S.runlua("--explore", "--json", j, "python3", "-c", HOSTILE)
			local text = S.read(j)
			os.remove(j)
			assert.are.equal(0, code, err)
			assert.are.equal("", (validate(text, "run.schema.json")))
			local r = cjson.decode(text)
			local b = r.behaviour
			-- every mode is octal text, in files and files_dropped alike
			local modes = {}
			for _, f in ipairs(r.files) do modes[f.path] = f.mode end
			for _, f in ipairs(r.files_dropped) do assert.are.equal(modes[f.path], f.mode, f.path) end
			assert.are.equal("0640", modes["/tmp/m"])
			-- a unix socket is its own kind: never ip_traffic, never the
			-- network rule's attempt
			assert.is_true(S.has(b.unix_sockets, '/run/"x\n.sock'))
			for _, t in ipairs(b.ip_traffic) do assert.is_nil(t.destination_ip:find("/", 1, true)) end
			assert.is_true(S.has(b.tags, "network"))
			for _, f in ipairs(r.verdict.reasons) do
				if f.rule == "network" then assert.is_nil(f.reason:find("sock", 1, true), f.reason) end
			end
			-- ip_traffic and dns_lookups in the behaviour only; the
			-- sink's own records under sink
			assert.is_nil(r.ip_traffic)
			assert.is_nil(r.dns_lookups)
			assert.is_table(r.sink.traffic)
			-- an empty list is [] in the text (jq '.x[0]' works on it)
			assert.truthy(text:find('"files_deleted":[]', 1, true))
		end)

		it_schema("a unix socket alone fires no network finding", function()
			local j = os.tmpname()
			local _, err, code = S.runlua("--explore", "--json", j, "python3", "-c",
				"import socket\nu = socket.socket(socket.AF_UNIX)\ntry: u.connect('/run/x.sock')\nexcept OSError: pass\n")
			local text = S.read(j)
			os.remove(j)
			assert.are.equal(0, code, err)
			assert.are.equal("", (validate(text, "run.schema.json")))
			local r = cjson.decode(text)
			assert.is_true(S.has(r.behaviour.unix_sockets, "/run/x.sock"))
			assert.are.same({}, r.behaviour.ip_traffic)
			assert.is_false(S.has(r.behaviour.tags, "network"))
			for _, f in ipairs(r.verdict.reasons) do assert.are_not.equal("network", f.rule) end
		end)

		it_schema("the default box's result (no behaviour, no sink) is valid too", function()
			local j = os.tmpname()
			local _, err, code = S.runlua("--json", j, "/bin/sh", "-c", "echo x > /tmp/y; exit 3")
			local text = S.read(j)
			os.remove(j)
			assert.are.equal(3, code, err)
			assert.are.equal("", (validate(text, "run.schema.json")))
		end)
	end)

	describe("batch.lua", function()
		it_schema("its lines, a program that cannot run among them, are valid against batch-line.schema.json; "
			.. "--merge writes them byte for byte", function()
			local d, rm = S.tmpdir()
			S.sh("cp /bin/true " .. S.q(d .. "/t") .. " && printf '#!/bin/sh\\nchmod 600 /tmp/z 2>/dev/null; "
				.. "echo z > /tmp/z\\n' > " .. S.q(d .. "/s.sh") .. " && chmod 755 " .. S.q(d .. "/s.sh")
				.. " && printf 'plain text' > " .. S.q(d .. "/n") .. " && chmod -R a+rX " .. S.q(d))
			local o = d .. "/out.jsonl"
			local _, code = S.sh(S.bin .. " batch.lua -q --output " .. S.q(o) .. " " .. S.q(d .. "/t") .. " "
				.. S.q(d .. "/s.sh") .. " " .. S.q(d .. "/n") .. " 2>&1")
			local text = S.read(o) or ""
			local merged, mcode = S.sh(S.bin .. " batch.lua -q --merge " .. S.q(o) .. " 2>/dev/null")
			rm()
			assert.are.equal(0, code)
			assert.are.equal(0, mcode)
			local n = select(2, text:gsub("\n", ""))
			assert.are.equal(3, n, text)
			assert.are.equal("", (validate(text, "batch-line.schema.json")))
			local sorted = {}
			for l in text:gmatch("[^\n]+") do sorted[#sorted + 1] = l end
			table.sort(sorted, function(a, b) return cjson.decode(a).program < cjson.decode(b).program end)
			assert.are.equal(table.concat(sorted, "\n") .. "\n", merged)
		end)
	end)
end)
