-- SPDX-License-Identifier: MIT
-- The sbxlua interpreter (core/api/main.c): lua.c's command line, sbx.core
-- linked in, the bundled lua/ directory, the REPL.  Runs the built binary,
-- $SBX_BIN or ./sbxlua, from the repository root.

local S = require "support"

local function mktemp_dir()
	local p = assert(io.popen("mktemp -d"))
	local dir = p:read("l")
	p:close()
	assert(dir and dir ~= "", "mktemp -d failed")
	return dir
end

local function rm_rf(path)
	os.execute("rm -rf " .. S.q(path))
end

-- Runs a shell command line; returns stdout, stderr and the exit status
-- (128 + n for a signal, as the shell reports it).
local function sh(cmd)
	local errfile = os.tmpname()
	local p = assert(io.popen("(" .. cmd .. ") 2>" .. S.q(errfile)))
	local out = p:read("a")
	local _, how, code = p:close()
	local err = S.read(errfile) or ""
	os.remove(errfile)
	if how == "signal" then
		code = 128 + code
	end
	return out, err, code
end

-- Runs S.bin with the arguments (already quoted) and stdin from /dev/null.
local function run(args)
	return sh(S.q(S.bin) .. " " .. args .. " </dev/null")
end

local function realpath(path)
	local p = assert(io.popen("realpath " .. S.q(path)))
	local r = p:read("l")
	p:close()
	return r
end

local function dirname(path)
	return path:match("^(.*)/[^/]*$") or "."
end

-- A throw-away install: a copy of the binary with a lua/ directory of its
-- own, which the exe-relative rule makes the bundled one.
local function fake_install()
	local root = mktemp_dir()
	local ok = os.execute("mkdir -p " .. S.q(root .. "/bin/lua/sbx") .. " " .. S.q(root .. "/cwd"))
		and os.execute("cp " .. S.q(S.bin) .. " " .. S.q(root .. "/bin/sbxlua"))
	if not ok then
		rm_rf(root)
		error("cannot copy " .. S.bin .. " to a temporary directory")
	end
	S.write(root .. "/bin/lua/sbx/init.lua", 'return { name = "fake facade" }\n')
	S.write(root .. "/bin/lua/hello.lua", 'io.write("bundled:", arg[0], ":", table.concat({...}, ","))\n')
	return root
end

-- Drives S.bin on a pseudo-terminal: types each line once a prompt shows,
-- then end of input; returns what the terminal showed and the exit status.
-- libedit may show the prompt a moment before it takes the terminal out of
-- line mode: a line typed then is echoed twice, and a ^D can be lost, so
-- the driver pauses before typing and repeats ^D until the REPL exits.
local PTY_DRIVER = [[
import os, pty, select, sys, time
lines = open(sys.argv[1]).read().split("\n")
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[2], sys.argv[2:])
out = b""
def wait_for(pred, timeout=30.0):
    global out
    end = time.time() + timeout
    while time.time() < end and not pred(out):
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            try:
                data = os.read(fd, 4096)
            except OSError:
                return False
            if not data:
                return False
            out += data
    return pred(out)
prompt = lambda o: o.endswith(b"> ")
for line in lines:
    wait_for(prompt)
    time.sleep(0.05)
    n = len(out)
    os.write(fd, line.encode() + b"\r")
    wait_for(lambda o: len(o) > n + len(line))
wait_for(prompt)
status = None
for _ in range(60):
    time.sleep(0.05)
    try:
        os.write(fd, b"\x04")
    except OSError:
        pass
    wait_for(lambda o: False, 0.5)
    done, st = os.waitpid(pid, os.WNOHANG)
    if done:
        status = os.waitstatus_to_exitcode(st)
        break
if status is None:
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    status = "hung"
sys.stdout.write(out.decode("utf-8", "replace"))
sys.stdout.write("\nSTATUS=%s\n" % status)
]]

-- A python3 that runs for this user (a shim under /root does not for
-- uid 65534), or nil.
local function find_python()
	for _, py in ipairs({ "python3", "/usr/bin/python3" }) do
		local _, _, code = sh(py .. " -c 'import pty' >/dev/null 2>&1")
		if code == 0 then
			return py
		end
	end
	return nil
end
local PYTHON = find_python()

local function repl(lines, env, bin)
	local dir = mktemp_dir()
	S.write(dir .. "/driver.py", PTY_DRIVER)
	S.write(dir .. "/input", table.concat(lines, "\n"))
	local out, err = sh(table.concat({
		"env", env or "", PYTHON, S.q(dir .. "/driver.py"), S.q(dir .. "/input"), S.q(bin or S.bin),
	}, " "))
	rm_rf(dir)
	local status = out:match("\nSTATUS=(%S+)\n$")
	status = tonumber(status) or status
	return out, status, err
end

describe("sbxlua", function()
	S.leak_check(before_each, after_each, assert)

	it("is built", function()
		local f = io.open(S.bin, "rb")
		assert.is_not_nil(f, S.bin .. " is missing: run make, or set SBX_BIN")
		f:close()
	end)

	describe("the command line", function()
		it("prints its version with -v", function()
			local out, err, code = run("-v")
			assert.are.equal(0, code)
			assert.are.equal("", err)
			assert.matches("^sbxlua %d+%.%d+%.%d+ %(Lua 5%.4%.%d+%)\n$", out)
			local ver = out:match("^sbxlua (%S+)")
			local cfg = run([[-e 'io.write(require("sbx.config").version)']])
			assert.are.equal(ver, cfg)
		end)

		it("runs -e in order, with arg holding the command line", function()
			local out, err, code = run([[-e 'io.write(arg[0], "|", arg[1], "|", #arg)']]
				.. [[ -e 'io.write("|second")']])
			assert.are.equal("", err)
			assert.are.equal(0, code)
			assert.are.equal(S.bin .. "|-e|4|second", out)
			out = run([[-e"io.write(6 * 7)"]])
			assert.are.equal("42", out)
		end)

		it("passes script arguments in arg and ..., options at negative indices", function()
			local script = os.tmpname()
			S.write(script, [[
				io.write(arg[-2], "|", arg[-1], "|", arg[0], "|", arg[1], "|", arg[2],
					"|", #arg, "|", table.concat({...}, ","))
			]])
			local out, err, code = run("-W " .. S.q(script) .. " a 'b c'")
			os.remove(script)
			assert.are.equal("", err)
			assert.are.equal(0, code)
			assert.are.equal(S.bin .. "|-W|" .. script .. "|a|b c|2|a,b c", out)
		end)

		it("stops at -- and takes the next word as the script", function()
			local script = os.tmpname()
			S.write(script, 'io.write("script:", ...)')
			local out, err, code = run("-- " .. S.q(script) .. " -x")
			os.remove(script)
			assert.are.equal("", err)
			assert.are.equal(0, code)
			assert.are.equal("script:-x", out)
		end)

		it("runs stdin for -", function()
			local code = [[io.write("stdin:", arg[0], ":", ...)]]
			local out, err, status = sh("printf %s " .. S.q(code) .. " | " .. S.q(S.bin) .. " - x y")
			assert.are.equal("", err)
			assert.are.equal(0, status)
			assert.are.equal("stdin:-:xy", out)
		end)

		it("runs stdin when it is not a terminal and there is no script", function()
			local out, err, code = sh("echo 'io.write(\"piped\")' | " .. S.q(S.bin))
			assert.are.equal("", err)
			assert.are.equal(0, code)
			assert.are.equal("piped", out)
		end)

		it("requires -l mod into mod and -l g=mod into g", function()
			local dir = mktemp_dir()
			S.write(dir .. "/spec_mod.lua", 'return { v = "from spec_mod" }\n')
			local env = "LUA_PATH=" .. S.q(dir .. "/?.lua") .. " "
			local out, err, code = sh(env .. S.q(S.bin) .. " -l spec_mod -l g=spec_mod"
				.. " -e 'io.write(spec_mod.v, \"|\", tostring(g == spec_mod))' </dev/null")
			rm_rf(dir)
			assert.are.equal("", err)
			assert.are.equal(0, code)
			assert.are.equal("from spec_mod|true", out)
		end)

		it("fails -l of a missing module with status 1", function()
			local out, err, code = run("-l no_such_module_xyz -e 'io.write(\"ran\")'")
			assert.are.equal(1, code)
			assert.are.equal("", out)
			assert.matches("module 'no_such_module_xyz' not found", err, 1, true)
		end)

		it("reports an error on stderr with a traceback and exits 1", function()
			local out, err, code = run([[-e 'error("boom")']])
			assert.are.equal(1, code)
			assert.are.equal("", out)
			assert.matches("^[^\n]*: %(command line%):1: boom\nstack traceback:\n", err)
		end)

		it("exits 1 when the script cannot be opened", function()
			local out, err, code = run("/nonexistent/script.lua")
			assert.are.equal(1, code)
			assert.are.equal("", out)
			assert.matches("cannot open /nonexistent/script.lua", err, 1, true)
		end)

		it("exits 1 after stdin that fails", function()
			local _, err, code = sh("echo 'error(\"x\")' | " .. S.q(S.bin))
			assert.are.equal(1, code)
			assert.matches("stdin:1: x", err, 1, true)
		end)

		it("passes os.exit's status through", function()
			local _, _, code = run("-e 'os.exit(7)'")
			assert.are.equal(7, code)
		end)

		it("rejects a bad option with the usage and status 1", function()
			local out, err, code = run("-x")
			assert.are.equal(1, code)
			assert.are.equal("", out)
			assert.matches("unrecognized option '-x'", err, 1, true)
			assert.matches("usage: ", err, 1, true)
			local _, err2, code2 = run("-e")
			assert.are.equal(1, code2)
			assert.matches("'-e' needs argument", err2, 1, true)
		end)

		it("runs LUA_INIT_5_4 before LUA_INIT, and neither with -E", function()
			local e = " -e 'io.write(tostring(x))'"
			local out = sh("LUA_INIT='x=1' " .. S.q(S.bin) .. e)
			assert.are.equal("1", out)
			out = sh("LUA_INIT_5_4='x=2' LUA_INIT='x=1' " .. S.q(S.bin) .. e)
			assert.are.equal("2", out)
			out = sh("LUA_INIT='x=1' " .. S.q(S.bin) .. " -E" .. e)
			assert.are.equal("nil", out)
			local _, err, code = sh("LUA_INIT='error(\"init\")' " .. S.q(S.bin) .. e)
			assert.are.equal(1, code)
			assert.matches("LUA_INIT:1: init", err, 1, true)
		end)

		it("turns warnings on with -W", function()
			local _, err = run([[-W -e 'warn("careful")']])
			assert.matches("Lua warning: careful", err, 1, true)
			_, err = run([[-e 'warn("careful")']])
			assert.are.equal("", err)
		end)

		it("stops a running chunk on SIGINT with 'interrupted!' and status 1", function()
			-- lua.c's promise: one SIGINT while a chunk runs raises
			-- "interrupted!" in it (a second one kills, as in lua.c).  The
			-- chunk writes its own pid once it runs; exactly one SIGINT goes
			-- to that pid.  timeout only kills a hung sbxlua: the signal is
			-- not sent through it (it would forward it to its whole group,
			-- a second SIGINT).
			local mark = os.tmpname()
			os.remove(mark)
			local code = [[
				local s = assert(io.open("/proc/self/stat")):read("a")
				local f = assert(io.open(os.getenv("MARK") .. ".tmp", "w"))
				f:write(s:match("^%d+")) f:close()
				assert(os.rename(os.getenv("MARK") .. ".tmp", os.getenv("MARK")))
				while true do end
			]]
			local out, err = sh(table.concat({
				"MARK=" .. S.q(mark) .. " timeout -s KILL 60 " .. S.q(S.bin) .. " -e " .. S.q(code) .. " & pid=$!",
				"i=0; while [ ! -s " .. S.q(mark) .. " ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done",
				"kill -INT \"$(cat " .. S.q(mark) .. ")\"; wait $pid; echo $?",
			}, "\n"))
			os.remove(mark)
			assert.are.equal("1\n", out)
			assert.matches("interrupted!", err, 1, true)
		end)
	end)

	describe("sbx additions", function()
		it("preloads sbx.core", function()
			local out, err, code = run([[-e 'io.write(type(require("sbx.core")), "|",
				type(package.preload["sbx.core"]))']])
			assert.are.equal("", err)
			assert.are.equal(0, code)
			assert.are.equal("table|function", out)
		end)

		it("puts the bundled directory first in package.path", function()
			local out = run([[-e 'local d = require("sbx.config").luadir
				local prefix = d .. "/?.lua;" .. d .. "/?/init.lua;"
				io.write(package.path:sub(1, #prefix) == prefix and "ok" or package.path)']])
			assert.are.equal("ok", out)
		end)

		it("takes lua/ next to the executable when it holds sbx/init.lua", function()
			local out = run([[-e 'io.write(require("sbx.config").luadir)']])
			local dir = realpath(dirname(S.bin)) .. "/lua"
			if S.read(dir .. "/sbx/init.lua") then
				assert.are.equal(dir, out)
			else
				assert.are_not.equal(dir, out)
			end
			local root = fake_install()
			out = sh(S.q(root .. "/bin/sbxlua") .. [[ -e 'io.write(require("sbx.config").luadir)']])
			local want = realpath(root) .. "/bin/lua"
			rm_rf(root)
			assert.are.equal(want, out)
		end)

		it("runs a bare script name from the bundled directory, arg[0] as typed", function()
			local root = fake_install()
			local bin = S.q(root .. "/bin/sbxlua")
			local cd = "cd " .. S.q(root .. "/cwd") .. " && "
			local bundled = sh(cd .. bin .. " hello.lua a b </dev/null")
			S.write(root .. "/cwd/other.lua", 'io.write("local:", ...)')
			local here = sh(cd .. bin .. " other.lua a </dev/null")
			local _, err, code = sh(cd .. bin .. " ./nothere.lua </dev/null")
			rm_rf(root)
			assert.are.equal("bundled:hello.lua:a,b", bundled)
			assert.are.equal("local:a", here)
			assert.are.equal(1, code)
			assert.matches("cannot open ./nothere.lua", err, 1, true)
		end)

		-- A box run with --rw .:/work can leave a file of any name in the
		-- caller's directory: a bare bundled name never means that file.
		it("runs the bundled script for a bare bundled name, never a planted one", function()
			local root = fake_install()
			local bin = S.q(root .. "/bin/sbxlua")
			local cd = "cd " .. S.q(root .. "/cwd") .. " && "
			S.write(root .. "/cwd/hello.lua", 'io.write("planted:", ...)')
			local bare = sh(cd .. bin .. " hello.lua a </dev/null")
			local slash = sh(cd .. bin .. " ./hello.lua a </dev/null")
			rm_rf(root)
			assert.are.equal("bundled:hello.lua:a", bare)
			assert.are.equal("planted:a", slash)
		end)

		it("has no relative template in package.path or package.cpath", function()
			local show = [[ -e 'io.write(package.path, "\n", package.cpath)' </dev/null]]
			local noenv = "env -u LUA_PATH -u LUA_PATH_5_4 -u LUA_CPATH -u LUA_CPATH_5_4 "
			-- the defaults, LUA_PATH's ";;" (which stands for them) and -E
			for _, cmd in ipairs {
				noenv .. S.q(S.bin) .. show,
				noenv .. "LUA_PATH=';;' LUA_CPATH_5_4=';;' " .. S.q(S.bin) .. show,
				noenv .. "LUA_PATH='./?.lua' LUA_CPATH='./?.so' " .. S.q(S.bin) .. " -E" .. show,
			} do
				local out, err, code = sh(cmd)
				assert.are.equal("", err)
				assert.are.equal(0, code)
				local n = 0
				for t in out:gmatch("[^;\n]+") do
					n = n + 1
					assert.matches("^/", t, 1, cmd .. ": " .. t)
				end
				assert.is_true(n >= 3, out)
				assert.matches("/lua/5.4/?.so", out, 1, true) -- the system's modules stay
			end
		end)

		it("keeps the user's own LUA_PATH and LUA_CPATH, ';;' standing for its default", function()
			local out = sh("env -u LUA_PATH_5_4 -u LUA_CPATH_5_4 LUA_PATH='./?.x;;/p/?.y' LUA_CPATH='./?.z' "
				.. S.q(S.bin) .. [[ -e 'io.write(require("sbx.config").luadir, "\n", package.path, "\n",]]
				.. [[ package.cpath)' </dev/null]])
			local luadir, path, cpath = out:match("^([^\n]*)\n([^\n]*)\n(.*)$")
			local want = luadir .. "/?.lua;" .. luadir .. "/?/init.lua;./?.x;/"
			assert.are.equal(want, path:sub(1, #want))
			assert.are.equal(";/p/?.y", path:sub(-7))
			assert.not_matches("%./%?%.lua", path)
			assert.are.equal("./?.z", cpath)
		end)
	end)

	-- core/api/chunk.c: scripts and modules from the entries make compiled,
	-- only when an entry was made from the text the source holds now,
	-- under the name it is loaded with, and is as protected as the source.
	describe("compiled chunks", function()
		-- a fake install with build/luac, and m.lua compiled into it
		local function with_entry(src)
			local root = fake_install()
			local dir = root .. "/bin/build/luac"
			assert(os.execute("install -d -m 0755 " .. S.q(dir)))
			S.write(root .. "/bin/lua/m.lua", src)
			local path = realpath(root) .. "/bin/lua/m.lua"
			local out, err, code = sh(S.q(root .. "/bin/sbxlua") .. " -e " .. S.q(
				("assert(require('sbx.core').chunk_compile(%q, %q, %q))"):format(path, path, dir)))
			assert.are.equal(0, code, out .. err)
			return root, path, dir
		end
		-- what m returns, and whether it came compiled
		local function load_m(root)
			local out, err = sh(S.q(root .. "/bin/sbxlua") .. [[ -e '
				local ok, m = pcall(require, "m")
				local path = package.searchpath("m", package.path)
				io.write(tostring(m), "|", tostring(require("sbx.config").compiled[path]))' </dev/null]])
			return out, err
		end
		local WHERE = 'local i = debug.getinfo(1, "Sl")\nreturn i.source .. ":" .. i.currentline\n'

		it("loads a module from its entry, with its name and line numbers", function()
			local root, path = with_entry(WHERE)
			local out, err = load_m(root)
			rm_rf(root)
			assert.are.equal("@" .. path .. ":1|true", out, err)
		end)

		it("keeps an entry's line information and code whole, without local and upvalue names", function()
			-- every kind of constant, nested functions, upvalues, varargs,
			-- a long string and a line past 255 (an absolute line entry)
			local src = 'local big, f, s, t, u = 2^53, 0.5, "short", "' .. ("long"):rep(20) .. '", nil\n'
				.. 'local function outer(...)\n  local n = select("#", ...)\n'
				.. '  return function(k) return n + k + big * f, s .. #t, u == nil, true, false end\n'
				.. 'end\n' .. ("\n"):rep(300)
				.. 'local function where() local i = debug.getinfo(1, "l") return i.currentline end\n'
				.. 'local function named(p) return p end\n'
				.. 'return table.concat({ tostring(outer(1, 2, 3)(4)), select(2, outer()(0)),'
				.. ' tostring(select(3, outer()(0))), where(), tostring(debug.getlocal(named, 1)),'
				.. ' math.type(0x7fffffffffffffff), -0.0 .. "" }, ",")\n'
			local root = with_entry(src)
			local compiled = load_m(root)
			assert(os.execute("rm -f " .. S.q(root) .. "/bin/build/luac/*.luac"))
			local source = load_m(root)
			rm_rf(root)
			-- the source names its locals: only the compiled one has none
			assert.are.equal("4.5035996273705e+15,short80,true,306,nil,integer,-0.0|true", compiled)
			assert.are.equal("4.5035996273705e+15,short80,true,306,p,integer,-0.0|nil", source)
		end)

		it("loads the source when it was edited since, or when the entry is for another place", function()
			local root, path, dir = with_entry(WHERE)
			S.write(path, WHERE .. "-- edited\n")
			local edited = load_m(root)
			S.write(path, WHERE)
			local again = load_m(root)
			-- the same text compiled for another path
			assert(os.execute("rm -f " .. S.q(dir) .. "/*.luac"))
			sh(S.q(root .. "/bin/sbxlua") .. " -e " .. S.q(("require('sbx.core').chunk_compile(%q, %q, %q)")
				:format(path, "/elsewhere/lua/m.lua", dir)))
			local other = load_m(root)
			rm_rf(root)
			assert.are.equal("@" .. path .. ":1|nil", edited)
			assert.are.equal("@" .. path .. ":1|true", again)
			assert.are.equal("@" .. path .. ":1|nil", other)
		end)

		it("takes no entry that is not as protected as the source, nor a broken one", function()
			local root, _, dir = with_entry('return "source"\n')
			local entry = sh("ls " .. S.q(dir) .. "/*.luac"):match("[^\n]+")
			local cases = {
				{ "group-writable entry", "chmod 0664 " .. S.q(entry), "chmod 0644 " .. S.q(entry) },
				{ "group-writable directory", "chmod 0775 " .. S.q(dir), "chmod 0755 " .. S.q(dir) },
				{ "entry through a symlink", "mv " .. S.q(entry) .. " " .. S.q(entry .. ".real")
					.. " && ln -s " .. S.q(entry .. ".real") .. " " .. S.q(entry),
					"rm " .. S.q(entry) .. " && mv " .. S.q(entry .. ".real") .. " " .. S.q(entry) },
				{ "directory through a symlink", "mv " .. S.q(dir) .. " " .. S.q(dir .. ".real")
					.. " && ln -s luac.real " .. S.q(dir),
					"rm " .. S.q(dir) .. " && mv " .. S.q(dir .. ".real") .. " " .. S.q(dir) },
				{ "truncated entry", "cp " .. S.q(entry) .. " " .. S.q(entry .. ".keep")
					.. " && truncate -s -40 " .. S.q(entry),
					"mv " .. S.q(entry .. ".keep") .. " " .. S.q(entry) },
			}
			if S.priv == "root" then
				cases[#cases + 1] = { "entry of another owner", "chown 12345 " .. S.q(entry), "chown 0 " .. S.q(entry) }
			end
			local seen = {}
			assert.are.equal("source|true", (load_m(root)))
			for _, c in ipairs(cases) do
				assert(os.execute(c[2]), c[1])
				seen[#seen + 1] = c[1] .. ": " .. load_m(root)
				assert(os.execute(c[3]), c[1])
			end
			local final = load_m(root)
			rm_rf(root)
			for i, c in ipairs(cases) do assert.are.equal(c[1] .. ": source|nil", seen[i]) end
			assert.are.equal("source|true", final)
		end)

		it("runs a script from its entry, its first # line skipped and counted", function()
			local root = fake_install()
			local dir = root .. "/bin/build/luac"
			assert(os.execute("install -d -m 0755 " .. S.q(dir)))
			local path = realpath(root) .. "/bin/lua/hello.lua"
			S.write(path, "#!/usr/bin/env sbxlua\nerror('line two')\n")
			sh(S.q(root .. "/bin/sbxlua") .. " -e " .. S.q(("assert(require('sbx.core').chunk_compile(%q, %q, %q))")
				:format(path, path, dir)))
			local _, err, code = sh(S.q(root .. "/bin/sbxlua") .. " hello.lua </dev/null")
			rm_rf(root)
			assert.are.equal(1, code)
			assert.matches(path .. ":2: line two", err, 1, true)
		end)

		it("compiles every module a run loads (scripts/luac.lua)", function()
			local root = mktemp_dir()
			local bin = root .. "/bin"
			assert(os.execute("mkdir -p " .. S.q(bin .. "/build/luac") .. " && cp " .. S.q(S.bin) .. " " .. S.q(bin)
				.. " && ln -s " .. S.q(realpath("lua")) .. " " .. S.q(bin .. "/lua")))
			local _, err, code = sh(S.q(bin .. "/sbxlua") .. " scripts/luac.lua " .. S.q(bin .. "/build/luac") .. " lua "
				.. S.q(realpath(bin) .. "/lua"))
			assert.are.equal(0, code, err)
			local out = sh(S.q(bin .. "/sbxlua") .. [[ -e '
				require "sbx.stdbox"; require "sbx.cli"; require "sbx.backend"
				local compiled = require("sbx.config").compiled
				local n, missing = 0, {}
				for name in pairs(package.loaded) do
					local path = package.searchpath(name, package.path)
					if path then
						n = n + 1
						if not compiled[path] then missing[#missing + 1] = path end
					end
				end
				io.write(n, " ", table.concat(missing, " "))' </dev/null]])
			rm_rf(root)
			local n, missing = out:match("^(%d+) (.*)$")
			assert.is_true(tonumber(n) >= 8, out)
			assert.are.equal("", missing)
		end)

		it("checks chunk_compile's arguments", function()
			local root = mktemp_dir()
			S.write(root .. "/bad.lua", "return +\n")
			local out = sh(S.q(S.bin) .. " -e " .. S.q(([[
				local core = require "sbx.core"
				local r = {}
				r[1] = select(2, pcall(core.chunk_compile, "x.lua", "rel/x.lua", %q))
				r[2] = select(2, core.chunk_compile(%q, "/x.lua", %q))
				r[3] = select(2, pcall(core.chunk_compile, %q, "/x.lua", %q))
				r[4] = select(2, pcall(core.chunk_compile, 1, "/x.lua"))
				io.write(table.concat(r, "\n"))]]):format(root, root .. "/none.lua", root,
				root .. "/bad.lua", root)) .. " </dev/null")
			rm_rf(root)
			local l = {}
			for line in (out .. "\n"):gmatch("(.-)\n") do l[#l + 1] = line end
			assert.matches("bad argument #2 to 'sbx.core.chunk_compile' (absolute path expected)", l[1], 1, true)
			assert.matches("chunk_compile " .. root .. "/none.lua: No such file", l[2], 1, true)
			assert.matches("/x.lua:1: unexpected symbol near", l[3], 1, true)
			assert.matches("bad argument #3 to 'sbx.core.chunk_compile' (string expected, got no value)", l[4], 1, true)
		end)

		it("finds modules as Lua's own searcher does: its templates, its message", function()
			-- sbxlua's searcher opens each candidate once and loads from
			-- that descriptor; what require says and finds is Lua's
			local root = mktemp_dir()
			assert(os.execute("mkdir -p " .. S.q(root .. "/b/x")))
			S.write(root .. "/b/x/y.lua", "return ...\n")
			local code = ([[package.path, package.cpath = %q, %q
				local ok, msg = pcall(require, "x.none")
				io.write(msg, "\n|", select(2, require("x.y")), "\n")]]):format(root .. "/c/?.lua;" .. root .. "/b/?.lua",
				root .. "/c/?.so")
			local out = sh(S.q(S.bin) .. " -e " .. S.q(code) .. " </dev/null")
			local want = sh("lua5.4 -e " .. S.q(code) .. " </dev/null")
			rm_rf(root)
			assert.are.equal(want, out)
			assert.matches("no file '" .. root .. "/c/x/none.lua'\n\tno file '" .. root .. "/b/x/none.lua'", out, 1, true)
			assert.matches("|" .. root .. "/b/x/y.lua\n", out, 1, true)
		end)
	end)

	describe("the REPL", function()
		local home
		before_each(function()
			home = mktemp_dir()
		end)
		after_each(function()
			rm_rf(home)
		end)

		it("prints expressions, continues lines and keeps history", function()
			if not PYTHON then
				pending("no python3 to drive a pseudo-terminal")
				return
			end
			local out, status = repl({
				"1+1",
				"for i = 1, 3 do",
				"io.write(i)",
				"end",
				"=  'eq' .. 'ual'",
				"error('oops')",
			}, "HOME=" .. S.q(home))
			assert.are.equal(0, status, out)
			assert.matches("^sbxlua %d", out)
			assert.matches("> 1%+1\r?\n", out)
			assert.matches("\n2\r?\n", out)
			assert.matches(">> ", out, 1, true)
			assert.matches("123", out, 1, true)
			assert.matches("\nequal\r?\n", out)
			assert.matches("stdin:1: oops", out, 1, true)
			local hist = S.read(home .. "/.sbxlua_history")
			assert.is_not_nil(hist, "no history file")
			assert.matches("1+1", hist, 1, true)
		end)

		-- a value is often what a box wrote (captured output, a name it
		-- chose): on the terminal it passes the filter a box's own output
		-- passes, so a title, or a request the terminal would answer as
		-- if typed, never reaches it; colour does
		it("shows a value through the terminal filter", function()
			if not PYTHON then
				pending("no python3 to drive a pseudo-terminal")
				return
			end
			local out, status = repl({
				[[x = "a\27]0;title\7b\27[6nc\27[31md\27[0m"]],
				"x",
			}, "HOME=" .. S.q(home))
			assert.are.equal(0, status, out)
			assert.truthy(out:find("\nabc\27[31md\27[0m\r\n", 1, true), out)
			assert.falsy(out:find("\27]", 1, true), out)
			assert.falsy(out:find("\27[6n", 1, true), out)
		end)

		it("uses _PROMPT", function()
			if not PYTHON then
				pending("no python3 to drive a pseudo-terminal")
				return
			end
			local out = repl({ "_PROMPT = 'P> '", "2*3" }, "HOME=" .. S.q(home))
			assert.matches("\nP> ", out, 1, true)
			assert.matches("\n6\r?\n", out)
		end)

		it("sets the global sbx when the facade loads, warns when not", function()
			if not PYTHON then
				pending("no python3 to drive a pseudo-terminal")
				return
			end
			local root = fake_install()
			finally(function()
				rm_rf(root)
			end)
			local out, status = repl({ "sbx.name" }, "HOME=" .. S.q(home), root .. "/bin/sbxlua")
			assert.are.equal(0, status, out)
			assert.matches("\nfake facade\r?\n", out)
			S.write(root .. "/bin/lua/sbx/init.lua", 'error("facade broken")\n')
			out, status = repl({ "type(sbx)" }, "HOME=" .. S.q(home), root .. "/bin/sbxlua")
			assert.are.equal(0, status, out)
			assert.matches("warning: global 'sbx' not set", out, 1, true)
			assert.matches("\nnil\r?\n", out)
		end)

		it("runs with a HOME it cannot write to", function()
			if not PYTHON then
				pending("no python3 to drive a pseudo-terminal")
				return
			end
			local out, status = repl({ "40+2" }, "HOME=/nonexistent/home")
			assert.are.equal(0, status, out)
			assert.matches("\n42\r?\n", out)
		end)
	end)
end)
