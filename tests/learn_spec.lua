-- SPDX-License-Identifier: MIT
-- learn.lua: a profile learned from a run under the strict profile in log
-- mode, run again in stop mode: the same program passes, one doing one
-- thing more is refused by name.  scripts/test.sh runs this file as root
-- and as uid 65534.
local S = require "support"
local sbx = require "sbx"

local PY = "/usr/bin/python3"
local PY_JSON = "import json; print(1)"
-- a socket, never connected: the connect is the variant's one thing more
local PY_SOCK = "import socket; s = socket.socket(); print(2)"
local SH_LS = "ls /usr >/dev/null"
local HOSTILE = "build/tests/hostile"

-- stdout, stderr, exit status
local function learn(...) return S.sbxlua("learn.lua", ...) end
local function stop(prof, ...) return S.sbxlua("run.lua", "--profile", prof, "--mode", "stop", ...) end

describe("learn.lua [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)
	local dir, rm
	before_each(function() dir, rm = S.tmpdir() end)
	after_each(function() rm() end)

	local function learned(name, ...)
		local p = dir .. "/" .. name
		local _, err, code = learn("-o", p, ...)
		assert.are.equal(0, code, err)
		return p
	end

	it("python3 importing json: learned, passes in stop mode; another open is refused", function()
		local p = learned("py.lua", PY, "-c", PY_JSON)
		local out, err, code = stop(p, PY, "-c", PY_JSON)
		assert.are.same({ "1\n", "sandbox: exit 0\n", 0 }, { out, err, code })
		out, err, code = stop(p, PY, "-c", PY_JSON .. "; open('/etc/hostname')")
		assert.are.same({ "", "sandbox: refused: open /etc/hostname\n", 125 }, { out, err, code })
	end)

	it("a socket learned without a connect: the connect is refused by its address", function()
		local p = learned("sock.lua", PY, "-c", PY_SOCK)
		local out, err, code = stop(p, PY, "-c", PY_SOCK)
		assert.are.same({ "2\n", "sandbox: exit 0\n", 0 }, { out, err, code })
		local _, verr, vcode = stop(p, PY, "-c", PY_SOCK .. "; s.connect(('10.0.0.1', 80))")
		-- (its print never flushed: the box ended at the connect)
		assert.are.same({ "sandbox: refused: connect 10.0.0.1:80\n", 125 }, { verr, vcode })
	end)

	it("a connect learned: its address in the list, the same connect passes", function()
		local p = learned("conn.lua", HOSTILE, "connect")
		assert.truthy(S.read(p):find('\n\t"127.0.0.1:4444", -- connect, bind or send, 1 event\n', 1, true))
		local out, err, code = stop(p, HOSTILE, "connect")
		assert.are.same({ "connect: Invalid argument\n", "sandbox: exit 0\n", 0 }, { out, err, code })
	end)

	it("/bin/sh listing /usr: learned, passes; reading /etc/hostname too is refused", function()
		local p = learned("sh.lua", "/bin/sh", "-c", SH_LS)
		local out, err, code = stop(p, "/bin/sh", "-c", SH_LS)
		assert.are.same({ "", "sandbox: exit 0\n", 0 }, { out, err, code })
		out, err, code = stop(p, "/bin/sh", "-c", SH_LS .. "; cat /etc/hostname")
		assert.are.same({ "", "sandbox: refused: open /etc/hostname\n", 125 }, { out, err, code })
	end)

	it("a large mapping raises the cap to its size; an open not learned is refused", function()
		local p = learned("mmap.lua", HOSTILE, "mmap")
		local text = S.read(p)
		assert.truthy(text:find("\nnotify.mmap_cap = 536870912 -- mmap, 1 event, the largest mapping\n", 1, true))
		local out, err, code = stop(p, HOSTILE, "mmap")
		assert.are.same({ "mmap: ok\n", "sandbox: exit 0\n", 0 }, { out, err, code })
		out, err, code = stop(p, HOSTILE, "shadow")
		assert.are.same({ "", "sandbox: refused: open /etc/shadow\n", 125 }, { out, err, code })
	end)

	it("files deleted, renamed, changed: their paths learned; another path's delete is refused", function()
		local FILEOPS = "build/tests/fileops"
		local ops = { "write:/work/a", "rename:/work/a:/work/b", "chmod:/work/b", "unlink:/work/b" }
		local p = learned("files.lua", FILEOPS, table.unpack(ops))
		local text = S.read(p)
		assert.truthy(text:find('\nnotify.change = {\n\t"/work/a", -- delete, rename or attribute, 1 event\n'
			.. '\t"/work/b", -- delete, rename or attribute, 3 events\n}\n', 1, true), text)
		local out, err, code = stop(p, FILEOPS, table.unpack(ops))
		assert.are.same({ "write: ok\nrename: ok\nchmod: ok\nunlink: ok\n", "sandbox: exit 0\n", 0 },
			{ out, err, code })
		-- a path only opened, never changed: a delete of it is refused
		local libc = "/lib/x86_64-linux-gnu/libc.so.6"
		assert.truthy(text:find('\n\t"' .. libc .. '", -- open, 1 event\n', 1, true), text)
		out, err, code = stop(p, FILEOPS, "unlink:" .. libc)
		assert.are.same({ "", "sandbox: refused: delete " .. libc .. "\n", 125 }, { out, err, code })
		out, err, code = stop(p, FILEOPS, "write:/work/a", "rename:/work/a:/work/c")
		assert.are.same({ "write: ok\n", "sandbox: refused: rename /work/a to /work/c\n", 125 },
			{ out, err, code })
	end)

	it("a program's temporary names: three learned runs give a profile that allows a fourth", function()
		-- tempfile's names are random per run: learned exactly, the next
		-- run's were refused and --union never converged
		local PY_TEMP = "import tempfile, os\n"
			.. "with tempfile.TemporaryDirectory() as d:\n"
			.. "    open(os.path.join(d, 'x.txt'), 'w').write('hi')\n"
			.. "with tempfile.NamedTemporaryFile() as f:\n    f.write(b'x')\nprint('ok')\n"
		local p = learned("temp.lua", PY, "-c", PY_TEMP)
		for _ = 2, 3 do
			local _, err, code = learn("--union", p, "--force", "-o", p, PY, "-c", PY_TEMP)
			assert.are.equal(0, code, err)
		end
		local text = S.read(p)
		assert.truthy(text:find('\nnotify.open = {\n\t"/tmp", -- open of a name made under it, ', 1, true), text)
		assert.falsy(text:find('"/tmp/tmp', 1, true), text)
		local out, err, code = stop(p, PY, "-c", PY_TEMP)
		assert.are.same({ "ok\n", "sandbox: exit 0\n", 0 }, { out, err, code })
		local _
		-- the place, not more: the home's files and /etc stay refused
		_, err, code = stop(p, PY, "-c", PY_TEMP .. "open('/etc/hostname')")
		assert.are.same({ "sandbox: refused: open /etc/hostname\n", 125 }, { err, code })
		local home = require("sbx.stdbox").user.home
		_, err, code = stop(p, PY, "-c", PY_TEMP .. "open('" .. home .. "/.bashrc')")
		assert.are.same({ "sandbox: refused: open " .. home .. "/.bashrc\n", 125 }, { err, code })
	end)

	it("a place with something the tree put there is no fresh place: its paths stay exact", function()
		local host = dir .. "/in.txt"
		S.write(host, "data\n")
		os.execute("chmod a+r " .. S.q(host) .. " " .. S.q(dir))
		local p = learned("bound.lua", "--ro", host .. ":/tmp/in.txt", "/bin/sh", "-c",
			"cat /tmp/in.txt >/dev/null; : > /tmp/made")
		local text = S.read(p)
		assert.truthy(text:find('\n\t"/tmp/in.txt", -- open, 1 event\n', 1, true), text)
		assert.truthy(text:find('\n\t"/tmp/made", -- open, 1 event\n', 1, true), text)
		assert.falsy(text:find('\n\t"/tmp", -- open of a name made', 1, true), text)
	end)

	it("never allows what the default profile refuses, nor a namespace", function()
		-- the strict profile keeps the default's refusals in the kernel
		-- (its errno, in log mode too): learning never sees them as calls
		-- to allow, and the program meets the same refusal afterwards
		for _, c in ipairs {
			{ "ptrace", "ptrace: Operation not permitted\n" },
			{ "clone", "clone: Operation not permitted\n" },
		} do
			local p = learned(c[1] .. ".lua", HOSTILE, c[1])
			assert.falsy(S.read(p):find('call = "' .. c[1] .. '"', 1, true), c[1])
			local out, err, code = stop(p, HOSTILE, c[1])
			assert.are.same({ c[2], "sandbox: exit 0\n", 0 }, { out .. err:gsub("sandbox: [^\n]*\n", ""),
				err:match("sandbox: [^\n]*\n$"), code }, c[1])
		end
	end)

	it("each addition says where it came from", function()
		local text = S.read(learned("sh.lua", "/bin/sh", "-c", SH_LS))
		assert.truthy(text:find('\n\t"/usr", %-%- open, 1 event\n'))
		assert.truthy(text:find('\nlocal p = %(%.%.%.%)%.load%("strict"%)\n'))
		assert.truthy(text:find("\nnotify.connect = {\n}\n"))
	end)

	it("is deterministic: two learns of one program give the same bytes", function()
		local a = S.read(learned("a.lua", "/bin/sh", "-c", SH_LS))
		local b = S.read(learned("b.lua", "/bin/sh", "-c", SH_LS))
		assert.are.equal(a, b)
		a = S.read(learned("c.lua", PY, "-c", PY_JSON))
		b = S.read(learned("d.lua", PY, "-c", PY_JSON))
		assert.are.equal(a, b)
	end)

	it("--union adds: the merged profile allows both runs, removes nothing", function()
		local a = learned("a.lua", PY, "-c", PY_JSON)
		local b = learned("b.lua", "/bin/sh", "-c", SH_LS)
		-- each alone refuses the other
		local _, err, code = stop(a, "/bin/sh", "-c", SH_LS)
		assert.are.equal(125, code)
		assert.truthy(err:find("^sandbox: refused: [^\n]+\n$"), err)
		local u = learned("u.lua", "--union", a, "/bin/sh", "-c", SH_LS)
		local out
		out, err, code = stop(u, PY, "-c", PY_JSON)
		assert.are.same({ "1\n", "sandbox: exit 0\n", 0 }, { out, err, code })
		out, err, code = stop(u, "/bin/sh", "-c", SH_LS)
		assert.are.same({ "", "sandbox: exit 0\n", 0 }, { out, err, code })
		-- every line of a's and b's lists is in u's
		local text = S.read(u)
		for _, f in ipairs { a, b } do
			for path in S.read(f):gmatch('\n\t("[^"]+"),') do
				assert.truthy(text:find("\n\t" .. path .. ",", 1, true), path)
			end
		end
		assert.truthy(text:find('\t"/usr", -- open, 1 event\n', 1, true))
		assert.truthy(text:find('\t"/usr/lib/python3.11", -- from --union\n', 1, true))
		-- a union still refuses a third thing
		_, err, code = stop(u, "/bin/sh", "-c", SH_LS .. "; cat /etc/hostname")
		assert.are.same({ "sandbox: refused: open /etc/hostname\n", 125 }, { err, code })
	end)

	it("refuses an output that exists, unless --force", function()
		local p = dir .. "/p.lua"
		S.write(p, "mine\n")
		local out, err, code = learn("-o", p, "/bin/true")
		assert.are.same({ "", "sbxlua: --output " .. p .. ": exists (--force replaces a regular file)\n", 126 },
			{ out, err, code })
		assert.are.equal("mine\n", S.read(p))
		out, err, code = learn("--force", "-o", p, "/bin/true")
		assert.are.equal(0, code, err)
		assert.are.equal("", out)
		assert.truthy(S.read(p):find("^%-%- A learned profile"))
	end)

	it("refuses an output that is a symlink, even with --force", function()
		local target, p = dir .. "/target", dir .. "/l.lua"
		S.write(target, "target\n")
		assert(os.execute("ln -s target " .. S.q(p)))
		for _, force in ipairs { false, true } do
			local args = force and { "--force", "-o", p, "/bin/true" } or { "-o", p, "/bin/true" }
			local out, err, code = learn(table.unpack(args))
			assert.are.equal("", out)
			assert.are.equal(126, code)
			assert.truthy(err:find("^sbxlua: %-%-output " .. p:gsub("%p", "%%%0") .. ": "), err)
			assert.are.equal("target\n", S.read(target))
		end
	end)

	it("out:write(data, \"excl\") refuses whatever is at the name", function()
		local p = dir .. "/x"
		local out <close> = assert(sbx.output(p))
		assert.is_true(out:write("one\n", "excl"))
		local ok, msg, err = out:write("two\n", "excl")
		assert.is_nil(ok)
		assert.are.equal("write " .. p .. ": File exists", msg)
		assert.are.equal(17, err)
		assert.are.equal("one\n", S.read(p))
		assert.is_true(out:write("three\n", "replace"))
		assert.are.equal("three\n", S.read(p))
		assert.has_error(function() out:write("x", "exclusive") end,
			"bad argument #3 to 'write' (invalid option 'exclusive')")
		-- no temporary name left behind
		assert.are.equal("x\n", S.sh("ls -A " .. S.q(dir)))
	end)

	it("refuses an output in a --rw directory", function()
		local out, err, code = learn("--rw", dir .. ":/work", "-o", dir .. "/p.lua", "/bin/true")
		assert.are.same({ "", "sbxlua: --output " .. dir .. "/p.lua: in the --rw directory " .. dir
			.. ", which the box writes\n", 126 }, { out, err, code })
		assert.is_nil(S.read(dir .. "/p.lua"))
	end)

	it("leaves no set-id file in a --rw directory: the same sweep after the box as every run's", function()
		-- the attack: a set-uid file of the box's host id left in a
		-- directory the caller runs things from later.  The filters refuse
		-- set-id bits in every mode-setting call (tests/filter_spec.lua),
		-- so the file is planted from the host here, as a box would leave
		-- one by a route the filter does not see; the sweep must clear it
		local rw = dir .. "/rw"
		os.execute("mkdir " .. S.q(rw) .. " && cp /bin/true " .. S.q(rw .. "/x") .. " && chmod 4755 "
			.. S.q(rw .. "/x"))
		if S.euid() == 0 then
			local id = require("sbx.stdbox").root_host_id
			os.execute(("chown -R %d:%d %s && chmod 4755 %s"):format(id, id, S.q(rw), S.q(rw .. "/x")))
		end
		local _, err, code = learn("-o", dir .. "/p.lua", "--rw", rw .. ":/out", "/bin/sh", "-c",
			"chmod 4755 /out/y 2>/dev/null; stat -c 'mode in box %a' /out/x >&2")
		assert.are.equal(0, code, err)
		-- the kernel's own view inside: the box held a set-uid file
		assert.truthy(err:find("mode in box 4755\n", 1, true), err)
		-- the host's state after: the file is there, the bit is not
		local st = assert(sbx.lstat(rw .. "/x"))
		assert.are.equal(0, st.mode & 3072, ("%o"):format(st.mode))
		assert.truthy(err:find("\nsandbox: [^\n]*set%-id[^\n]*/out/x\n"), err)
	end)

	it("--help and a usage error as run.lua's", function()
		local out, err, code = learn("--help")
		assert.are.equal(0, code, err)
		assert.truthy(out:find("^Usage: sbxlua learn%.lua "))
		assert.truthy(out:find("\n   %-%-union FILE "))
		out, err, code = learn("--bogus", "/bin/true")
		assert.are.same({ "", "sbxlua: unknown option '--bogus' (see --help)\n", 126 }, { out, err, code })
	end)

	it("without -o: the profile on stdout, the program's output on stderr", function()
		local out, err, code = learn("/bin/echo", "hi")
		assert.are.equal(0, code)
		assert.are.equal("hi\nsandbox: exit 0\n", err)
		-- passed on as it came, not held until the box ended
		assert.truthy(out:find("^%-%- A learned profile"))
		assert.truthy(out:find("\nreturn p\n$"))
	end)
end)
