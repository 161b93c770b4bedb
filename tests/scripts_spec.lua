-- SPDX-License-Identifier: MIT
-- Script text as evidence (core/super/script.c, sbx.facts `scripts`, the
-- rulekit's `script` key, the behaviour's `scripts_run`): what the
-- analysis box's interpreters ran, taken as they read it, bounded, hashed
-- and named by the process that ran it.  Every script here is written
-- inside the box by the box itself, as a sample's would be.
-- scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"
local core = require "sbx.core"
local facts = require "sbx.facts"
local html = require "sbx.html"
local report = require "sbx.report"

-- one analysis-box run of `sh -c script`: its JSON result and report
local function box(...)
	local _, err, code, res = S.json_run("--explore", "--wall", "60", ...)
	assert(res, err)
	return res, err, code
end

local function sh(script) return box("/bin/sh", "-c", script) end

-- the result's scripts whose source is source (and language, if given)
local function scripts_of(res, source, language)
	local out = {}
	for _, s in ipairs(res.scripts or {}) do
		if s.source == source and (not language or s.language == language) then out[#out + 1] = s end
	end
	return out
end

-- the exec events of the run whose argv[1] base name is name
local function execs_of(res, name)
	local out = {}
	for _, e in ipairs(res.events or {}) do
		local argv = type(e.argv) == "table" and e.argv or {}
		if e.kind == "exec" and argv[1] and argv[1]:match("[^/]*$") == name then out[#out + 1] = e end
	end
	return out
end

-- the result of `sh -c script` in the box and its first script by sh
-- whose source is source (one is asserted)
local function sh_script(script, source)
	local res = sh(script)
	local s = scripts_of(res, source, "sh")[1]
	local kind = (source == "-c" or source == "stdin") and source or "file"
	assert.truthy(s, "no " .. kind .. " script")
	return res, s
end

local function has_finding(res, rule)
	return S.finding(res.verdict and res.verdict.reasons or res.behaviour.verdicts or {}, rule)
end

describe("script text as evidence [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	it("takes a -c string whole, hashed, named by the shell's pid and image", function()
		local res, s = sh_script("unset HISTFILE; echo 'a;b' >/dev/null", "-c")
		assert.are.equal("unset HISTFILE; echo 'a;b' >/dev/null", s.text)
		assert.are.equal(core.sha256(s.text), s.sha256)
		assert.are.equal(#s.text, math.tointeger(s.size))
		assert.is_false(s.cut)
		assert.are.equal(execs_of(res, "sh")[1].pid, s.pid)
		local f = facts.of(res)
		assert.are.same({ "unset HISTFILE", "echo 'a;b' >/dev/null" }, f.scripts[1].lines)
		assert.truthy(has_finding(res, "history_logging_off"))
		local run = res.behaviour.scripts_run[1]
		assert.are.same({ source = "-c", sha256 = s.sha256, size = run.size, language = "sh" }, run)
	end)

	it("takes a script piped to sh whole, past the pipe's buffer, as the shell reads it", function()
		-- about 190 KB: the relay carries it in many writes
		local res, s = sh_script("i=0; while [ $i -lt 12000 ]; do echo \"x=line$i\"; i=$((i+1)); done | sh", "stdin")
		local want = {}
		for i = 0, 11999 do want[#want + 1] = "x=line" .. i .. "\n" end
		want = table.concat(want)
		assert.are.equal(#want, math.tointeger(s.size))
		assert.are.equal(core.sha256(want), s.sha256)
		assert.are.equal(want, s.text)
		assert.are.equal(0, math.tointeger(res.exit_code))
	end)

	it("never holds the box up when the reading shell leaves early (the relay stops, the writer sees EPIPE)",
		function()
			local res, s = sh_script("yes 'exit 0' | sh; echo after", "stdin")
			assert.truthy(s.text:find("^exit 0\n"))
			assert.are.equal("exit", res.outcome)
		end)

	it("reads sh < file from the shell's own descriptor", function()
		local _, s = sh_script("printf 'set +o history\\necho x\\n' > /tmp/in.sh; sh < /tmp/in.sh", "stdin")
		assert.are.equal("set +o history\necho x\n", s.text)
	end)

	it("reports a script that rewrites its own file with the bytes it held at the interpreter's open", function()
		-- line 1 overwrites the file the shell is running; what sbxlua
		-- shows is the file as it was when the shell opened it (the
		-- supervisor reads it whole then, before the shell runs a line)
		local res, s = sh_script("printf 'echo REWRITTEN > /tmp/self.sh\\nhistory -c\\n' > /tmp/self.sh; sh /tmp/self.sh; "
			.. "cat /tmp/self.sh", "/tmp/self.sh")
		assert.are.equal("echo REWRITTEN > /tmp/self.sh\nhistory -c\n", s.text)
		assert.truthy(has_finding(res, "history_cleared"))
	end)

	it("never reads a kernel file a script names (the supervisor's rights are not the box's)", function()
		local res = sh("sh /proc/kcore 2>/dev/null; sh < /proc/self/status 2>/dev/null; "
			.. "sh /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null; true")
		for _, x in ipairs(res.scripts) do
			assert.are.equal("-c", x.source, "took " .. tostring(x.source))
		end
	end)

	it("cuts a 10 MiB script at 256 KiB with the mark, hashes it whole, and still flags its first lines", function()
		local res, s = sh_script("{ printf 'unset HISTFILE\\nexit 0\\n'; head -c 10485760 /dev/zero | tr '\\0' '#'; } "
			.. "> /tmp/big.sh; sh /tmp/big.sh", "/tmp/big.sh")
		assert.is_true(s.cut)
		assert.are.equal(10485760 + 22, math.tointeger(s.size))
		assert.are.equal(256 * 1024, #s.text)
		assert.truthy(s.sha256 and #s.sha256 == 64)
		assert.truthy(has_finding(res, "history_logging_off"))
		assert.truthy(res.behaviour.scripts_run[2].cut)
	end)

	it("takes python3 -c and a .py file, each by its own process", function()
		local res = sh("python3 -c 'import base64;exec(base64.b64decode(\"cHJpbnQoMSk=\"))'; "
			.. "printf 'import os\\nprint(2)\\n' > /tmp/a.py; python3 /tmp/a.py")
		local c = scripts_of(res, "-c", "python")[1]
		local f = scripts_of(res, "/tmp/a.py", "python")[1]
		assert.truthy(c and f)
		assert.are.equal('import base64;exec(base64.b64decode("cHJpbnQoMSk="))', c.text)
		assert.are.equal("import os\nprint(2)\n", f.text)
		local py = execs_of(res, "python3")
		assert.are.equal(py[1].pid, c.pid)
		assert.are.equal(py[2].pid, f.pid)
		assert.truthy(has_finding(res, "obfuscated"))
	end)

	it("names each script of a pipeline by the process that read it", function()
		local res = sh("printf 'echo one\\n' | sh | cat; echo 'echo two' | sh -s | cat")
		local ins = scripts_of(res, "stdin", "sh")
		assert.are.equal(2, #ins)
		local shells = execs_of(res, "sh")
		-- the first exec of sh is the box's command; then the two readers
		assert.are.equal(3, #shells)
		assert.are.equal("echo one\n", ins[1].text)
		assert.are.equal(shells[2].pid, ins[1].pid)
		assert.are.equal("echo two\n", ins[2].text)
		assert.are.equal(shells[3].pid, ins[2].pid)
		assert.are_not.equal(ins[1].pid, ins[2].pid)
	end)

	it("takes a script once when the shell looks its interpreter up along PATH (an exec a directory)", function()
		local res = sh("echo 'echo hi' | PATH=/nowhere:/nor/here:/usr/bin sh; PATH=/nowhere:/usr/bin sh -c 'echo two'")
		local ins, cs = scripts_of(res, "stdin", "sh"), scripts_of(res, "-c", "sh")
		assert.are.equal(1, #ins)
		assert.are.equal(2, #cs) -- the box's command's, then the inner one
		assert.are.equal("echo two", cs[2].text)
		local tried = 0
		for _, e in ipairs(execs_of(res, "sh")) do
			if e.pid == ins[1].pid then tried = tried + 1 end
		end
		assert.truthy(tried >= 1)
		assert.are.equal("/usr/bin/sh", ins[1].image)
	end)

	it("holds a text run again once: each run is listed, the text named by its first entry", function()
		local res = sh("for i in 1 2 3; do sh -c 'unset HISTFILE'; done")
		local cs = scripts_of(res, "-c", "sh")
		assert.are.equal(4, #cs)
		assert.are.equal("unset HISTFILE", cs[2].text)
		local first = cs[2]
		for k = 3, 4 do
			assert.are.equal("", cs[k].text)
			assert.are.equal(first, res.scripts[math.tointeger(cs[k].same)])
			assert.are.equal(first.sha256, cs[k].sha256)
		end
		local f = facts.of(res)
		assert.are.same({ "unset HISTFILE" }, f.scripts[4].lines)
	end)

	it("keeps a run's texts within its budget, and says which it cut", function()
		-- 20 scripts of 300 KiB, each its own text: 4 MiB in all is kept
		local res = sh("for i in $(seq 20); do { echo \"echo $i\"; head -c 307200 /dev/zero | tr '\\0' '#'; } "
			.. "> /tmp/s$i.sh; sh /tmp/s$i.sh >/dev/null; done")
		local kept, cut, seen = 0, 0, {}
		for i = 1, 20 do
			local s = scripts_of(res, "/tmp/s" .. i .. ".sh")[1]
			assert.truthy(s, "script " .. i)
			if s.cut then cut = cut + 1 end
			assert.truthy(#s.sha256 == 64)
		end
		-- every text kept once (the -c loop's own too)
		for _, s in ipairs(res.scripts) do
			if not seen[s.sha256] then kept = kept + #s.text end
			seen[s.sha256] = true
		end
		assert.are.equal(4 * 1024 * 1024, kept)
		assert.are.equal(20, cut)
	end)

	it("writes the scripts in the HTML page escaped", function()
		local res = sh("echo '<script>x</script>' > /dev/null")
		local page = html.page(res)
		assert.falsy(page:find("<script>x", 1, true))
		assert.truthy(page:find("&lt;script&gt;x", 1, true))
	end)
end)

describe("report.scripts_text", function()
	it("says one line per script when verbose, and the scripts past the budget always", function()
		local r = { scripts = { { pid = 4, language = "sh", source = "/tmp/a\nb.sh", size = 300000,
			sha256 = ("a"):rep(64), cut = true, text = "" } }, scripts_over = 1200 }
		assert.are.equal("sandbox: script: pid 4 sh /tmp/a\\nb.sh 300000 bytes sha256:" .. ("a"):rep(64)
			.. ", cut\nsandbox: note: 1,200 scripts beyond the budget were run but not kept\n",
			report.scripts_text(r, true))
		assert.are.equal("sandbox: note: 1,200 scripts beyond the budget were run but not kept\n",
			report.scripts_text(r))
		assert.are.equal("", report.scripts_text({}))
	end)

	it("refuses bad input", function()
		assert.has_error(function() report.scripts_text(nil) end,
			"bad argument #1 to 'scripts_text' (table expected, got nil)")
	end)
end)

describe("facts.lines", function()
	it("splits a shell text into logical lines", function()
		local text = "a=1; b='x;y' \\\nc\ncat <<EOF\nl1; l2\nEOF\n# note; here\necho \"q;\n r\""
		assert.are.same({ "a=1", "b='x;y' c", "cat <<EOF", "l1; l2", "EOF", "# note; here", "echo \"q;\n r\"" },
			facts.lines(text, "sh"))
		assert.are.same({ "import os", "x = 1 + 2" }, facts.lines("import os\nx = 1 + \\\n2\n", "python"))
	end)

	it("refuses bad input", function()
		assert.has_error(function() facts.lines(nil, "sh") end,
			"bad argument #1 to 'lines' (string expected, got nil)")
		assert.has_error(function() facts.lines("x", 1) end,
			"bad argument #2 to 'lines' (string expected, got number)")
	end)
end)
