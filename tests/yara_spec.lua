-- SPDX-License-Identifier: MIT
-- YARA (sbx.yara, core/super/inspect_yara.c): the operator's rules
-- compiled once in a confined child, scanned over the sample and the
-- dropped files in the confined inspection worker; hostile rules files
-- refused with a clear message, a pathological rule stopped by libyara's
-- timeout and named, libyara and libmagic opened by no process of
-- sbxlua's but those.  As root and as uid 65534.
local S = require "tests.support"
local yara = require "sbx.yara"

-- a rules file of text in dir, mode 0644; its path
local function rules_file(dir, name, text)
	local p = dir .. "/" .. name
	local f = assert(io.open(p, "wb"))
	f:write(text)
	f:close()
	os.execute("chmod 0644 " .. S.q(p))
	return p
end

local MARKERS = [[
rule dropped_marker : demo
{
  meta:
    severity = "high"
    attack = "T1105"
  strings:
    $m = "YARA-DROPPED-MARKER"
  condition:
    $m
}
rule sample_marker
{
  meta:
    severity = 4
  strings:
    $s = "YARA-SAMPLE-MARKER"
  condition:
    $s
}
]]

-- the findings' reasons of a verdict, joined by newlines
local function reasons(v)
	local out = {}
	for _, f in ipairs(v and v.reasons or {}) do out[#out + 1] = f.rule .. ": " .. f.reason end
	return table.concat(out, "\n")
end

-- run.lua ARGS in the directory dir (a script named relative to it is
-- bound into the box's /work), --json into dir; stderr, status, result
local function run_in(dir, ...)
	local cjson = require "cjson"
	local root = S.sh("pwd"):gsub("%s+$", "")
	local args = {}
	for i, a in ipairs { ... } do args[i] = S.q(a) end
	local err, code = S.sh("cd " .. S.q(dir) .. " && " .. S.q(root .. "/sbxlua") .. " " .. S.q(root .. "/lua/run.lua")
		.. " --json " .. S.q(dir .. "/out.json") .. " " .. table.concat(args, " ") .. " 2>&1 </dev/null")
	return err, code, cjson.decode(S.read(dir .. "/out.json") or "null")
end

-- whether the JSON in file is valid against docs/schema/NAME (Debian's
-- python3-jsonschema); nil when that cannot be checked here
local function schema_valid(file, name)
	local _, none = S.sh("/usr/bin/python3 -c 'import jsonschema' 2>/dev/null")
	if none ~= 0 then return nil end
	local out, code = S.sh("/usr/bin/python3 -W ignore tests/schema_check.py docs/schema " .. name .. " <" .. S.q(file)
		.. " 2>&1")
	return code == 0, out
end

-- The private directories (/tmp/sbxlua-yara.*) listed after a run and not
-- before it that stay: one there now and not before is another run's (a
-- suite run beside this one) and goes when that run ends; this run's
-- would stay.
local function left_behind(before, after)
	local extra = {}
	for d in after:gmatch("[^\n]+") do
		if not before:find(d, 1, true) then extra[#extra + 1] = d end
	end
	for _ = 1, 300 do
		local left = {}
		for _, d in ipairs(extra) do
			if S.sh("ls -d " .. S.q(d) .. " 2>/dev/null") ~= "" then left[#left + 1] = d end
		end
		extra = left
		if #extra == 0 then break end
		os.execute("sleep 0.1")
	end
	return extra
end

-- The match of a run's YARA record on a memory payload (the last one).
local function memfd_match(res, err)
	assert(res and res.yara, err)
	local seen
	for _, m in ipairs(res.yara.matches) do
		if m.what == "memfd" then seen = m end
	end
	return assert(seen, err)
end

local function have(tool)
	return select(2, S.sh("command -v " .. tool .. " >/dev/null")) == 0
end

describe("yara [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	it("sbx.yara.compile refuses bad arguments", function()
		assert.has_error(function() yara.compile(nil) end,
			"bad argument #1 to 'compile' (string or list of paths expected, got nil)")
		assert.has_error(function() yara.compile({}) end, "bad argument #1 to 'compile' (at least one path expected)")
		assert.has_error(function() yara.compile({ "a", 3 }) end,
			"bad argument #1 to 'compile' (path 2 is not a non-empty string)")
		assert.has_error(function() yara.compile("") end,
			"bad argument #1 to 'compile' (path 1 is not a non-empty string)")
		local core = require "sbx.core"
		assert.has_error(function() core.yara_compile({}) end)
		assert.has_error(function() core.yara_compile({ { name = "x", text = "a\0b" } }) end)
		assert.has_error(function() core.yara_compile({ { name = "x", text = "rule a { condition: true }", nm = 1 } }) end)
		assert.has_error(function() core.yara_scan("x", { 1 }) end)
		local set = assert(yara.compile(rules_file(S.tmpdir(), "t.yar", "rule t { condition: true }")))
		assert.has_error(function() set:scan({ { file = "x" } }) end,
			"bad argument #2 to 'scan' (item 1 needs file and data strings)")
		assert.has_error(function() yara.verdict_rules(nil) end)
		assert.has_error(function() yara.join(1, {}) end, "bad argument #1 to 'join' (table or nil expected)")
		assert.has_error(function() yara.join(nil, nil) end, "bad argument #2 to 'join' (table expected, got nil)")
		assert.has_error(function() require("sbx.batch").run({}, {}, { list = {}, yara = set }, 2, print) end,
			"sbx.batch.run: with YARA rules, one box at a time a process")
	end)

	it("set:scan's matches equal the yara tool's: rules, string identifiers and offsets", function()
		if not have("yara") then return pending("yara is not installed (scripts/deps.sh installs it)") end
		local dir, rm = S.tmpdir()
		local rules = rules_file(dir, "ref.yar", MARKERS .. [[
rule many { strings: $x = "ab" $y = /b[a-c]/ condition: #x > 2 and $y }
]])
		local data = "YARA-SAMPLE-MARKER ab ab abc YARA-DROPPED-MARKER " .. ("ab"):rep(30)
		local f = assert(io.open(dir .. "/data", "wb"))
		f:write(data)
		f:close()
		local want = {}
		for line in S.sh("yara -s " .. S.q(rules) .. " " .. S.q(dir .. "/data") .. " 2>/dev/null"):gmatch("[^\n]+") do
			local off, id = line:match("^0x(%x+):(%$%w+):")
			if off then
				want[#want + 1] = ("%s %s %d"):format(want.rule, id, tonumber(off, 16))
			else
				want.rule = line:match("^(%S+)")
			end
		end
		want.rule = nil
		local set = assert(yara.compile(rules))
		local scan = assert(set:scan({ { file = "data", what = "sample", data = data } }))
		rm()
		local got, left = {}, 0
		for _, m in ipairs(scan.matches) do
			for _, st in ipairs(m.strings) do got[#got + 1] = ("%s %s %d"):format(m.rule, st.id, st.offset) end
			left = left + (m.strings_left_out or 0)
		end
		table.sort(got)
		table.sort(want)
		-- at most 16 string matches a rule listed, the rest counted
		assert.are.equal(#want, #got + left)
		for _, g in ipairs(got) do
			local found = false
			for _, w in ipairs(want) do found = found or w == g end
			assert(found, g .. " not in yara's: " .. table.concat(want, ", "))
		end
		assert.truthy(left > 0)
	end)

	it("a rule that does not compile is named with libyara's message, file and line", function()
		local dir, rm = S.tmpdir()
		local p = rules_file(dir, "bad.yar", "rule ok { condition: true }\n\nrule bad { condition: no_such_thing }\n")
		local set, msg = yara.compile(p)
		local inc, imsg = yara.compile(rules_file(dir, "inc.yar", 'include "/etc/passwd"\n'))
		rm()
		assert.is_nil(set)
		assert.are.equal(p .. ':3: undefined identifier "no_such_thing"', msg)
		assert.is_nil(inc)
		assert.truthy(imsg:find("inc.yar:1: .*include", 1), imsg)
	end)

	it("hostile rules files are refused cleanly: huge, deeply nested, binary, box-writable, a symlink", function()
		local dir, rm = S.tmpdir()
		local huge = rules_file(dir, "huge.yar", "rule h { condition: true }\n" .. ("//" .. ("x"):rep(1000) .. "\n"):rep(1100))
		local deep = rules_file(dir, "deep.yar", "rule d { condition: " .. ("("):rep(20000) .. "true"
			.. (")"):rep(20000) .. " }\n")
		local deepre = rules_file(dir, "deepre.yar", "rule r { strings: $a = /" .. ("("):rep(5000) .. "a"
			.. (")"):rep(5000) .. "/ condition: $a }\n")
		local binary = rules_file(dir, "bin.yar", "rule b { condition: true }\0\1\2\255")
		local high = rules_file(dir, "high.yar", ("\200\201\255"):rep(1000))
		local open = rules_file(dir, "open.yar", "rule o { condition: true }\n")
		os.execute("chmod 0666 " .. S.q(open))
		local real = rules_file(dir, "real.yar", "rule s { condition: true }\n")
		os.execute("ln -s " .. S.q(real) .. " " .. S.q(dir .. "/link.yar"))
		local want = {
			[huge] = "File too large",
			[deep] = "deep.yar:1: memory exhausted",
			[deepre] = "deepre.yar:1: ",
			[binary] = "holds a NUL byte: binary, not YARA rules",
			[high] = "high.yar:1: ",
			[open] = "writable by others",
			[dir .. "/link.yar"] = "link.yar",
		}
		for p, frag in pairs(want) do
			local set, msg = yara.compile(p)
			assert.is_nil(set, p)
			assert.truthy(tostring(msg):find(frag, 1, true), p .. ": " .. tostring(msg))
		end
		-- a directory others can write is refused as a whole
		os.execute("chmod 0777 " .. S.q(dir))
		local set, msg = yara.compile(dir)
		rm()
		assert.is_nil(set)
		assert.truthy(msg:find("writable by others", 1, true), msg)
	end)

	it("run.lua --explore --yara names the rule that matched the sample and a dropped file, with the file", function()
		local dir, rm = S.tmpdir()
		local rules = rules_file(dir, "markers.yar", MARKERS)
		local f = assert(io.open(dir .. "/sample.sh", "wb"))
		f:write("# YARA-SAMPLE-MARKER\nprintf 'x YARA-DROPPED-MARKER' > /tmp/dropped.txt\n")
		f:close()
		os.execute("chmod -R a+rX " .. S.q(dir))
		local before = S.sh("ls -d /tmp/sbxlua-yara.* 2>/dev/null")
		local err, code, res = run_in(dir, "--explore", "--yara", rules, "sh", "sample.sh")
		local after = S.sh("ls -d /tmp/sbxlua-yara.* 2>/dev/null")
		local valid, why = schema_valid(dir .. "/out.json", "run.schema.json")
		rm()
		assert.are_not.equal(false, valid, why)
		assert(res, err)
		assert.is_number(code)
		local text = reasons(res.verdict)
		assert.truthy(text:find("yara:markers:sample_marker: YARA rule markers:sample_marker matched the sample "
			.. dir .. "/sample.sh: $s at 2", 1, true), text)
		assert.truthy(text:find("yara:markers:dropped_marker: YARA rule markers:dropped_marker [demo] matched "
			.. "dropped file /tmp/dropped.txt: $m at 2", 1, true), text)
		assert.are.equal("malicious", res.verdict.verdict)
		for _, r in ipairs(res.verdict.reasons) do
			if r.rule == "yara:markers:dropped_marker" then assert.are.same({ "T1105" }, r.attack) end
		end
		assert.are.equal(3, #res.yara.matches) -- the sample holds both markers
		assert.are.same({ rules }, res.yara.files)
		assert.truthy(err:find("finding: yara:markers:dropped_marker [T1105]", 1, true), err)
		-- no private copy left behind, and none named
		assert.are.same({}, left_behind(before, after))
		assert.is_nil(res.pcap)
	end)

	it("a rule matches a payload executed from memory, named with the payload", function()
		local dir, rm = S.tmpdir()
		local rules = rules_file(dir, "mem.yar", "rule elf_payload : payload { meta: severity = \"critical\" "
			.. "attack = \"T1620\" strings: $e = { 7F 45 4C 46 } condition: $e at 0 }\n")
		-- the payload is a copy of the program's own file (under 64 KiB)
		local _, err, _, res = S.json_run("--explore", "--yara", rules, "build/tests/memfd_path", "memfd")
		rm()
		local seen = memfd_match(res, err)
		assert.are.equal("elf_payload", seen.rule)
		assert.are.same({ { id = "$e", offset = 0 } }, seen.strings)
		assert.truthy(seen.file:find("^/memfd:"), seen.file)
		local text = reasons(res.verdict)
		assert.truthy(text:find("yara:mem:elf_payload: YARA rule mem:elf_payload [payload] matched memory payload "
			.. seen.file .. ": $e at 0", 1, true), text)
		assert.are.same({}, res.yara.stopped)
	end)

	it("a payload executed from memory past 64 KiB is scanned whole, from the copy --keep holds of it", function()
		local dir, rm = S.tmpdir()
		-- true only of more than the worker's 64 KiB head
		local rules = rules_file(dir, "big.yar", "rule elf_big { condition: uint32(0) == 0x464c457f and "
			.. "filesize > 100KB }\n")
		os.execute("chmod 0755 " .. S.q(dir))
		local keep = dir .. "/keep"
		local _, err, _, res = S.json_run("--explore", "--keep", keep, "--yara", rules, "python3", "-c",
			"import os; fd = os.memfd_create('big'); os.write(fd, open('/bin/ls', 'rb').read()); "
			.. "os.execve(fd, ['ls', '/'], {})")
		local want = S.sh("sha256sum /bin/ls"):match("^(%x+)")
		local copy = S.read(keep .. "/memfd/" .. want)
		local mode = S.sh("stat -c %a " .. S.q(keep .. "/memfd"))
		rm()
		local seen = memfd_match(res, err)
		assert.are.equal("elf_big", seen.rule)
		assert.truthy(seen.file:find("^/memfd:big"), seen.file)
		assert.are.same({}, res.yara.stopped)
		assert(copy, "no copy of the payload under --keep's memfd/")
		assert.are.equal(want, require("sbx.core").sha256(copy))
		assert.are.equal("700\n", mode)
	end)

	it("a rule that takes too long is stopped by libyara's timeout and named, not a hang", function()
		local dir, rm = S.tmpdir()
		local rules = rules_file(dir, "slow.yar", "rule slow { condition: for all i in (0..filesize) : "
			.. "( for all j in (0..filesize) : ( uint8(i) != uint8(j) + 1000 ) ) }\n")
		local f = assert(io.open(dir .. "/big.sh", "wb"))
		f:write("# ", ("a"):rep(200000), "\nexit 0\n")
		f:close()
		os.execute("chmod -R a+rX " .. S.q(dir))
		local err, code, res = run_in(dir, "--explore", "--yara", rules, "sh", "big.sh")
		rm()
		assert(res and res.yara, err)
		assert.are.equal(0, code, err)
		assert.are.equal(0, #res.yara.matches)
		assert.are.same({ file = dir .. "/big.sh", what = "sample", why = "timeout" }, res.yara.stopped[1])
		local text = reasons(res.verdict)
		assert.truthy(text:find("yara_stopped: YARA scan of the sample " .. dir .. "/big.sh stopped (timeout)",
			1, true), text)
		assert.are_not.equal("clean", res.verdict.verdict)
	end)

	it("batch.lua --yara compiles once and names a sample's match in its line", function()
		local dir, rm = S.tmpdir()
		local rules = rules_file(dir, "markers.yar", MARKERS)
		os.execute("mkdir " .. S.q(dir .. "/s"))
		local f = assert(io.open(dir .. "/s/a.sh", "wb"))
		f:write("#!/bin/sh\n# YARA-SAMPLE-MARKER\nexit 0\n")
		f:close()
		os.execute("cp /bin/true " .. S.q(dir .. "/s/b") .. " && chmod -R a+rX " .. S.q(dir))
		local out, code = S.sh(S.bin .. " batch.lua --quiet --yara " .. S.q(rules) .. " " .. S.q(dir .. "/s")
			.. " 2>/dev/null")
		local lines = dir .. "/lines"
		local h = assert(io.open(lines, "w"))
		h:write(out)
		h:close()
		local valid, why = schema_valid(lines, "batch-line.schema.json")
		rm()
		assert.are_not.equal(false, valid, why)
		assert.are.equal(0, code, out)
		local cjson = require "cjson"
		local seen = {}
		for line in out:gmatch("[^\n]+") do
			local rec = cjson.decode(line)
			seen[rec.program:match("[^/]*$")] = rec
		end
		local a = assert(seen["a.sh"], out)
		assert.truthy(reasons(a):find("yara: YARA rule markers:sample_marker matched the sample "
			.. dir .. "/s/a.sh: $s at 12", 1, true), reasons(a))
		assert.are.equal("suspicious", a.verdict)
		assert.are.equal("clean", seen.b.verdict)
	end)

	it("batch.lua --yara scans each run's dropped files (whole) and memory payloads, at -j 1 and -j 2", function()
		local dir, rm = S.tmpdir()
		local rules = rules_file(dir, "m.yar", "rule dropped_marker { strings: $m = \"YARA-DROPPED-MARKER\" "
			.. "condition: $m }\nrule elf_payload { strings: $e = { 7F 45 4C 46 } condition: $e at 0 }\n")
		os.execute("mkdir " .. S.q(dir .. "/s"))
		-- the marker past a dropped file's first 64 KiB, split in the
		-- sample's own text; and a copy of itself run from a memfd
		local f = assert(io.open(dir .. "/s/drop.sh", "wb"))
		f:write("#!/bin/sh\nhead -c 200000 /dev/zero > /tmp/big\nprintf 'YARA-%s-MARKER' DROPPED >> /tmp/big\n")
		f:close()
		os.execute("cp build/tests/behave/fileless " .. S.q(dir .. "/s/") .. " && chmod -R a+rX " .. S.q(dir))
		local before = S.sh("ls -d /tmp/sbxlua-yara.* 2>/dev/null")
		local cjson = require "cjson"
		for _, j in ipairs { "1", "2" } do
			local out, code = S.sh(S.bin .. " batch.lua --quiet -j " .. j .. " --yara " .. S.q(rules) .. " "
				.. S.q(dir .. "/s") .. " 2>&1")
			assert.are.equal(0, code, out)
			local seen = {}
			for line in out:gmatch("[^\n]+") do
				local rec = cjson.decode(line)
				local m = {}
				for _, x in ipairs(rec.run.yara.matches) do m[#m + 1] = x.rule .. " " .. x.what .. " " .. x.file end
				table.sort(m)
				seen[rec.program:match("[^/]*$")] = { matches = m, stopped = rec.run.yara.stopped, rec = rec }
			end
			assert.are.same({ "dropped_marker dropped /tmp/big" }, seen["drop.sh"].matches, out)
			assert.are.same({}, seen["drop.sh"].stopped)
			local fl = seen.fileless.matches
			assert.are.equal(2, #fl, out)
			assert.are.equal("elf_payload memfd /memfd:payload", fl[1]:sub(1, #"elf_payload memfd /memfd:payload"))
			assert.are.equal("elf_payload sample " .. dir .. "/s/fileless", fl[2])
			assert.truthy(reasons(seen.fileless.rec):find("matched memory payload /memfd:payload", 1, true))
		end
		local after = S.sh("ls -d /tmp/sbxlua-yara.* 2>/dev/null")
		rm()
		assert.are.same({}, left_behind(before, after))
	end)

	it("strace -f: libyara and libmagic are opened by sbxlua's confined children alone", function()
		if not have("strace") then return pending("strace is not installed (scripts/deps.sh installs it)") end
		if S.asan then return pending("an instrumented sbxlua under strace") end
		local dir, rm = S.tmpdir()
		local rules = rules_file(dir, "markers.yar", MARKERS)
		os.execute("chmod -R a+rX " .. S.q(dir))
		local log = dir .. "/strace"
		S.sh("strace -f -qq -e trace=openat,execve -o " .. S.q(log) .. " " .. S.bin .. " run.lua --yara "
			.. S.q(rules) .. " --json " .. S.q(dir .. "/out.json") .. " sh -c 'echo YARA-DROPPED-MARKER > /tmp/x; cp /bin/true /tmp/y' "
			.. "2>/dev/null </dev/null")
		local text = S.read(log) or ""
		rm()
		local main = text:match("^(%d+)")
		assert(main, text:sub(1, 200))
		local by = { yara = {}, magic = {} }
		for pid, lib in text:gmatch("\n?(%d+) +openat%([^\n]*/lib(%a+)%.so[^\n]*= %d+") do
			if by[lib] then by[lib][pid] = true end
		end
		assert(next(by.yara), "libyara was never opened")
		assert(next(by.magic), "libmagic was never opened")
		assert.is_nil(by.yara[main], "sbxlua itself opened libyara")
		assert.is_nil(by.magic[main], "sbxlua itself opened libmagic")
	end)
end)
