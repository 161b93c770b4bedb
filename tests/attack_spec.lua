-- SPDX-License-Identifier: MIT
-- Hostile programs against the code that reads what a box controls: the
-- network sink's parser and caps, the explain channel, the walk of what a
-- box wrote, the BPF cache.  Each test runs the hostile program in a real
-- box and checks the report and the host afterwards.
-- scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"

local run = S.runlua

local function prog(name)
	return (assert(S.read("tests/progs/attack/" .. name)))
end

local json_of = S.take_json

local lines_of = S.lines_with

describe("hostile programs [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	it("sink: malformed queries are not answered, forged names stay on one line", function()
		local json = os.tmpname()
		local out, err, code = run("-v", "--net", "sink", "--json", json, "python3", "-c", prog("dns.py"))
		assert.are.equal(0, code, err)
		-- the resolver still answers after pointers, loops, over-long names
		assert.are.equal("10.0.0.2\n", out)
		assert.are.equal("sandbox: dns: . A -> 10.0.0.2\n"
			.. "sandbox: dns: x\\nsandbox:\\x20exit\\x200\\x1b[31m A -> 10.0.0.2\n"
			.. "sandbox: dns: a\\x20A\\x20->\\x2010.9.9.9\\x20A\\x20->\\x201.1.1.1\\x20x A -> 10.0.0.2\n"
			.. "sandbox: dns: e.vil A -> 10.0.0.2\n"
			.. "sandbox: dns: ok.example A -> 10.0.0.2\n", lines_of(err, "sandbox: dns: "))
		-- one line per report line: nothing the box sent starts a line
		assert.are.equal(1, select(2, err:gsub("\nsandbox: exit ", "")))
		local t = json_of(json)
		assert.are.equal(5, #t.sink.dns)
		assert.are.equal("x\\nsandbox:\\x20exit\\x200\\x1b[31m", t.sink.dns[2].hostname)
	end)

	it("sink: a flood of datagrams and connections stays within the caps, the resolver still answers", function()
		local json = os.tmpname()
		local out, err, code = run("-v", "--net", "sink", "--json", json, "python3", "-c", prog("flood.py"))
		assert.are.equal(0, code, err)
		assert.are.equal("answered 0\n", out)
		local t = json_of(json)
		-- each kind within its budget (the kernel drops what overflows a
		-- socket's buffer before the supervisor sees it: no exact count)
		local sink = require "sbx.sink"
		local udp, tcp = 0, 0
		for _, x in ipairs(t.sink.traffic) do
			if x.protocol == "udp" then udp = udp + 1 else tcp = tcp + 1 end
		end
		assert.is_true(udp <= sink.budget.udp and tcp <= sink.budget.tcp)
		assert.are.same({ { hostname = "ok", type = "A", answer = "10.0.0.2", count = 1 } }, t.sink.dns)
		if t.sink.dropped_udp > 0 then
			assert.truthy(err:find(("\nsandbox: note: sink: %s datagrams beyond the budget"):format(
				require("sbx.report").thousands(t.sink.dropped_udp)), 1, true))
		end
	end)

	-- the events of a --mode log run of attack_paths, and its output
	local function logged(arg)
		local json = os.tmpname()
		local out, err, code = run("--json", json, "--profile", "tests/profiles/notify.lua", "--mode", "log",
			"build/tests/attack_paths", arg)
		assert.are.equal(0, code, err)
		return out, json_of(json).events, err
	end

	-- the open after the loader's two, in the JSON of a --mode log run
	local function third_open(arg)
		local out, events = logged(arg)
		local opens = {}
		for _, e in ipairs(events) do
			if e.kind == "open" then opens[#opens + 1] = e end
		end
		return out, opens[3]
	end

	it("explain: a path that runs into an unmapped page is named '?', not a stale or partial name", function()
		local out, e = third_open("unmapped")
		assert.are.equal("unmapped: 14\n", out) -- EFAULT
		assert.are.equal("?", e.path)
	end)

	it("explain: a path longer than the event's buffer is read whole and cleaned, not '?' nor its prefix", function()
		local out, e = third_open("long")
		assert.are.equal("long: 20\n", out) -- ENOTDIR: /etc/passwd was not what was opened
		-- "/etc/passwd", 2000 slashes, "../tmp/x": cleaned as a name
		-- (lexically, as every path is), short enough to be kept whole
		assert.are.equal("/etc/tmp/x", e.path)
		assert.is_nil(e.path_cut)
	end)

	it("cache: --rw of the compiled-program cache, of a directory holding it or of where it will be made is refused", function()
		local dir = S.tmpdir()
		local env = "XDG_CACHE_HOME=" .. dir .. "/cache"
		-- absent yet: a box given its parent could make it and plant entries
		for _, d in ipairs { dir } do
			local out, err, code = S.runlua_env(env, "--rw", d, "true")
			assert.are.equal("", out)
			assert.are.equal("sbxlua: --rw " .. d .. ": refusing to make sbxlua's own files writable\n", err)
			assert.are.equal(126, code)
		end
		assert.is_nil(S.read(dir .. "/cache/sbxlua"))
		assert(os.execute("mkdir -p " .. S.q(dir .. "/cache/sbxlua")))
		for _, d in ipairs { dir, dir .. "/cache", dir .. "/cache/sbxlua" } do
			local _, err, code = S.runlua_env(env, "--rw", d, "true")
			assert.are.equal("sbxlua: --rw " .. d .. ": refusing to make sbxlua's own files writable\n", err)
			assert.are.equal(126, code)
		end
		assert(os.execute("rm -rf " .. S.q(dir)))
	end)

	it("written: hostile names stay on their line, and the JSON is UTF-8 with the escaped fields named", function()
		local json = os.tmpname()
		local out, err, code = run("-v", "--json", json, "python3", "-c", prog("names.py"))
		assert.are.equal(0, code, err)
		assert.are.equal("mknod 1\n", out) -- EPERM: no device node in the box
		assert.are.equal("sandbox: written: /tmp/a\\nsandbox: exit 0\\x1b[2J (file 0644, 1 B, "
			.. "sha256:2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881)\n"
			.. "sandbox: written: /tmp/bad\\xff\\xfe (file 0644, 1 B, "
			.. "sha256:a1fce4363854ff888cff4b8e7875d600c2682390412a8cf79b37d0b11148b0fa)\n"
			.. "sandbox: written: /tmp/fifo (fifo 0644)\n"
			.. "sandbox: written: /tmp/hard (file 0644, 1 B, "
			.. "sha256:a1fce4363854ff888cff4b8e7875d600c2682390412a8cf79b37d0b11148b0fa)\n"
			.. "sandbox: written: /tmp/link (link -> /etc/sh\\xffadow)\n", lines_of(err, "sandbox: written: "))
		local text = assert(S.read(json))
		assert.is_truthy(utf8.len(text), "the JSON is UTF-8")
		local files = {}
		for _, f in ipairs(json_of(json).files) do files[f.path] = f end
		assert.are.equal("/tmp/a\nsandbox: exit 0\27[2J", files["/tmp/a\nsandbox: exit 0\27[2J"].path)
		assert.are.same({ "path" }, files["/tmp/bad\\xff\\xfe"].escaped)
		assert.are.same({ "link" }, files["/tmp/link"].escaped)
		assert.are.equal("/etc/sh\\xffadow", files["/tmp/link"].link)
		assert.is_nil(files["/tmp/hard"].escaped)
	end)

	it("keep: DIR is never reached through a symlink a box could have planted", function()
		local dir = S.tmpdir()
		assert(os.execute("mkdir " .. S.q(dir .. "/real") .. " && ln -s real " .. S.q(dir .. "/link")))
		local out, err, code = run("--keep", dir .. "/link/out", "sh", "-c", "echo hi >/tmp/x")
		assert.are.equal("", out)
		assert.are.equal("sbxlua: keep directory " .. dir .. "/link/out: Too many levels of symbolic links\n", err)
		assert.are.equal(126, code)
		assert.is_nil(S.read(dir .. "/real/out/tmp/x"))
		-- a directory a box could have filled is not taken
		assert(os.execute("mkdir -p " .. S.q(dir .. "/full/planted")))
		out, err, code = run("--keep", dir .. "/full", "sh", "-c", "echo hi >/tmp/x")
		assert.are.equal("", out)
		assert.are.equal("sbxlua: keep directory " .. dir .. "/full: Directory not empty\n", err)
		assert.are.equal(126, code)
		-- the fix's own case: through real directories, kept
		out, err, code = run("--keep", dir .. "/real/out", "sh", "-c", "echo hi >/tmp/x")
		assert.are.equal(0, code, err .. out)
		assert.are.equal("hi\n", S.read(dir .. "/real/out/tmp/x"))
		assert(os.execute("rm -rf " .. S.q(dir)))
	end)

	it("rules and outputs: batch refuses rules a box could have written, learn an output the box writes", function()
		local dir = S.tmpdir()
		assert(os.execute(("cd %s && printf 'return {}\\n' >rules.lua && chmod 666 rules.lua && "
			.. "ln -s rules.lua link.lua && mkdir open && chmod 777 open && printf 'return {}\\n' >open/rules.lua && "
			.. "mkdir lw && chmod 777 lw"):format(S.q(dir))))
		local function batch(f)
			return S.sh(S.bin .. " batch.lua --rules " .. S.q(dir .. "/" .. f) .. " /bin/true 2>&1 </dev/null")
		end
		local out, code = batch("rules.lua")
		assert.are.equal(("sbxlua: --rules %s/rules.lua: %s/rules.lua: the file is writable by others\n")
			:format(dir, dir), out)
		assert.are.equal(126, code)
		out, code = batch("link.lua")
		assert.are.equal(("sbxlua: --rules %s/link.lua: open %s/link.lua: a symbolic link on the path "
			.. "(never followed)\n"):format(dir, dir), out)
		assert.are.equal(126, code)
		out, code = batch("open/rules.lua")
		assert.are.equal(("sbxlua: --rules %s/open/rules.lua: %s/open/rules.lua: its directory is "
			.. "writable by others\n"):format(dir, dir), out)
		assert.are.equal(126, code)
		out, code = S.sh(S.bin .. " learn.lua --rw " .. S.q(dir .. "/lw") .. " -o " .. S.q(dir .. "/lw/p.lua")
			.. " /bin/true 2>&1 </dev/null")
		assert.are.equal(("sbxlua: --output %s/lw/p.lua: in the --rw directory %s/lw, which the box writes\n")
			:format(dir, dir), out)
		assert.are.equal(126, code)
		assert.is_nil(S.read(dir .. "/lw/p.lua"))
		assert(os.execute("rm -rf " .. S.q(dir)))
	end)

	it("explain: socket addresses of length 0, 2, 64 KiB, an unknown family, a unix name too long to keep", function()
		local out, events = logged("addr")
		assert.are.equal("addr: 22 22 22 22 2\n", out) -- EINVAL four times, then ENOENT
		local addrs = {}
		for _, e in ipairs(events) do
			if e.kind == "connect" then addrs[#addrs + 1] = ("%s x%d"):format(e.addr or "-", e.count or 1) end
		end
		-- 108 bytes of name do not fit: "?", never a prefix naming another socket
		assert.are.same({ "- x2", "family 14649 x2", "? x1" }, addrs)
	end)

	it("explain: thousands of notified calls are all kept (within the budgets, notify.h)", function()
		local out, events, err = logged("many")
		assert.are.equal("many: 5000\n", out)
		local kept = 0
		for _, e in ipairs(events) do
			if e.kind == "open" or e.kind == "exec" then kept = kept + 1 end
			assert.are_not.equal("dropped", e.kind)
		end
		-- the exec, the loader's two opens and the 5000
		assert.are.equal(5003, kept)
		assert.falsy(err:find("evidence past its budget", 1, true), err)
	end)

	it("written: a file another writer grows during the walk is unread (ESTALE) or hashed and kept at its size", function()
		local dir = S.tmpdir()
		local stdbox = require "sbx.stdbox"
		if S.euid() == 0 then assert(os.execute(("chown %d:%d %s"):format(stdbox.root_host_id,
			stdbox.root_host_id, S.q(dir)))) end
		local keep = dir .. ".keep"
		-- a host process appends until told to stop (at most 33 MiB)
		local writer = io.popen(("/usr/bin/python3 -c %s %s"):format(S.q([[
import os, sys
d = sys.argv[1]
f = open(d + '/grow', 'ab', buffering=0)
f.write(b'x' * (1 << 20))
print('started', flush=True)
n = 0
while not os.path.exists(d + '.stop') and n < 8192:
    f.write(bytes([n & 255]) * 4096)
    n += 1
]]), S.q(dir)), "r")
		assert.are.equal("started\n", writer:read("l") .. "\n")
		local json = os.tmpname()
		local _, err, code = run("--json", json, "--keep", keep, "--rw", dir .. ":/data", "true")
		assert(io.open(dir .. ".stop", "w")):close()
		writer:close()
		assert.are.equal(0, code, err)
		local f
		for _, x in ipairs(json_of(json).files) do
			if x.path == "/data/grow" then f = x end
		end
		local whole = assert(S.read(dir .. "/grow"))
		if f.unread then
			assert.are.equal("ESTALE", f.unread)
			assert.is_nil(f.kept)
			assert.is_nil(S.read(keep .. "/data/grow"))
		else
			local head = whole:sub(1, math.tointeger(f.size))
			assert.are.equal(require("sbx.core").sha256(head), f.sha256)
			local copy = S.read(keep .. "/data/grow")
			if f.kept then
				assert.are.equal(f.sha256, require("sbx.core").sha256(copy))
			else
				assert.is_nil(copy)
			end
		end
		assert(os.execute("rm -rf " .. S.q(dir) .. " " .. S.q(keep) .. " " .. S.q(dir .. ".stop")))
	end)

	it("explain: an exec's argv too long, too many or unterminated is marked cut", function()
		local out, events = logged("argv")
		assert.are.equal("argv: 2 2 2\n", out) -- ENOENT: the kernel opens the file first
		local seen = {}
		for _, e in ipairs(events) do
			if e.kind == "exec" then seen[#seen + 1] = ("%d %s"):format(#e.argv, tostring(e.argv_cut)) end
		end
		-- the program's own exec is whole
		-- the one of 1000 bytes kept cut, its length given
		assert.are.same({ "2 nil", "64 true", "2 true", "64 true" }, seen)
		local cut
		for _, e in ipairs(events) do
			if e.kind == "exec" and e.arg_cut then cut = e end
		end
		assert.are.equal(1000, cut.arg_cut)
		assert.truthy(cut.argv[2]:find("^y+%[%.%.%.%]y+$"), cut.argv[2])
	end)

	it("written: a setsid daemon cannot write once the walk starts (the pid namespace ends with init)", function()
		local dir = S.tmpdir()
		local json = os.tmpname()
		local _, err, code = run("--json", json, "--keep", dir .. "/keep", "sh", "-c",
			"setsid sh -c 'while :; do echo x >>/tmp/g; done' </dev/null >/dev/null 2>&1 & "
			.. "until [ -s /tmp/g ]; do :; done; exit 0")
		assert.are.equal(0, code, err)
		local f
		for _, x in ipairs(json_of(json).files) do
			if x.path == "/tmp/g" then f = x end
		end
		-- read whole at one size: nothing wrote during the walk
		assert.is_nil(f.unread)
		local copy = assert(S.read(dir .. "/keep/tmp/g"))
		assert.are.equal(math.tointeger(f.size), #copy)
		assert.are.equal(("x\n"):rep(#copy // 2), copy)
		assert.are.equal(f.sha256, require("sbx.core").sha256(copy))
		assert(os.execute("rm -rf " .. S.q(dir)))
	end)

	it("sink: a flooding box beside another in run_many leaves the other's resolver and record whole", function()
		local sbx = require "sbx"
		local stdbox = require "sbx.stdbox"
		local a = assert(stdbox.build { prog = "/usr/bin/python3", args = { "-c", prog("flood.py") }, net = "sink",
			stdout = "capture" })
		local b = assert(stdbox.build { prog = "/usr/bin/getent", args = { "hosts", "good.example" }, net = "sink",
			stdout = "capture" })
		local rs = sbx.run_many { a, b }
		assert.are.equal("answered 0\n", rs[1].stdout)
		assert.is_true(#rs[1].sink <= 1 + require("sbx.sink").budget.udp + require("sbx.sink").budget.tcp)
		assert.are.equal("10.0.0.2        good.example\n", rs[2].stdout)
		assert.are.equal(0, rs[2].code)
		assert.are.equal(0, rs[2].sink_dropped)
		for _, e in ipairs(rs[2].sink) do assert.are.equal("good.example", e.name) end
	end)

	it("cache: six runs filling an empty cache at once all run and leave one entry, no temporary", function()
		local dir = S.tmpdir()
		local out = S.sh(("cd %s && for i in 1 2 3 4 5 6; do (XDG_CACHE_HOME=%s %s run.lua true 2>/dev/null; "
			.. "echo $?) & done; wait"):format(S.q(S.sh("pwd"):gsub("\n$", "")), S.q(dir), S.bin))
		assert.are.equal(("0\n"):rep(6), out)
		local names = S.sh("ls -A " .. S.q(dir .. "/sbxlua"))
		assert.truthy(names:match("^%x+\n$"), names)
		assert(os.execute("rm -rf " .. S.q(dir)))
	end)

	it("keep: a copy that cannot be written whole (the caller's file size limit) leaves no partial file", function()
		local dir = S.tmpdir()
		local json = os.tmpname()
		local _, code = S.sh(("trap '' XFSZ; ulimit -S -f 1024; %s run.lua --json %s --keep %s sh -c %s 2>/dev/null")
			:format(S.bin, S.q(json), S.q(dir .. "/keep"),
				S.q("head -c 2000000 /dev/zero >/tmp/big; echo small >/tmp/small")))
		assert.are.equal(0, code)
		local files = {}
		for _, f in ipairs(json_of(json).files) do files[f.path] = f end
		assert.is_nil(files["/tmp/big"].kept)
		assert.is_not_nil(files["/tmp/big"].not_kept)
		assert.is_nil(S.read(dir .. "/keep/tmp/big"))
		assert.are.equal("small\n", S.read(dir .. "/keep/tmp/small"))
		assert(os.execute("rm -rf " .. S.q(dir)))
	end)

	it("learn: an open the supervisor could not read ('?') is not learned as a path to allow", function()
		local out, code = S.sh(S.bin .. " learn.lua build/tests/attack_paths long 2>/dev/null </dev/null")
		assert.are.equal(0, code, out)
		assert.truthy(out:find("notify.open_exact = {\n", 1, true), out)
		assert.falsy(out:find('"?"', 1, true), out)
		assert.falsy(out:find('"/etc/passwd"', 1, true), out)
	end)
end)
