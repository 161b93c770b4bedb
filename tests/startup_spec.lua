-- SPDX-License-Identifier: MIT
-- What a run loads (docs/performance.md, "Load only what the run uses"):
-- a script never maps libedit, the REPL does; run.lua reads the behaviour
-- summary's modules only when it prints or records one; and a module
-- loaded after a box has run comes from sbxlua's own directory, never from
-- one the box wrote.  scripts/test.sh runs this file as root and as uid
-- 65534.
local S = require "support"

local bin = S.sh("realpath " .. S.q(S.bin)):gsub("\n$", "")

-- The files sbxlua opens in a run.lua run (its main process, which loads
-- every module: strace without -f), as strace's text, and the exit status.
local function opened(...)
	local tr = os.tmpname()
	local args = {}
	for i, a in ipairs { ... } do args[i] = S.q(a) end
	local _, code = S.sh("strace -qq -e trace=openat,open -o " .. S.q(tr) .. " " .. S.q(bin)
		.. " run.lua " .. table.concat(args, " ") .. " 2>/dev/null </dev/null")
	local t = S.read(tr) or ""
	os.remove(tr)
	return t, code
end

-- Gives a host directory to the box's host id, so that a root caller's box
-- can write it (an unprivileged caller's box writes as the caller).
local function box_writable(d)
	if S.euid() == 0 then
		local id = require("sbx.stdbox").root_host_id
		os.execute(("chown %d:%d %s"):format(id, id, S.q(d)))
	end
end

-- runs `cd dir && sbxlua ARGS...` with stdin; stdout, stderr, status
local function from(dir, stdin, ...)
	local args = {}
	for i, a in ipairs { ... } do args[i] = S.q(a) end
	local errf, inf = os.tmpname(), os.tmpname()
	S.write(inf, stdin)
	local out, code = S.sh("cd " .. S.q(dir) .. " && " .. S.q(bin) .. " " .. table.concat(args, " ")
		.. " 2>" .. errf .. " <" .. inf)
	local err = S.read(errf)
	os.remove(errf)
	os.remove(inf)
	return out, err, code
end

-- Lua that leaves `marker` behind wherever it runs, as a module
local function planted(marker)
	return ('local f = io.open(%q, "w") f:write("ran") f:close()\n'
		.. 'return setmetatable({}, { __index = function() return function() end end })\n'):format(marker)
end

-- the shell of a box that plants `sbx/NAME.lua` for each name in /work
local function plant_script(marker, names)
	local s = { "mkdir -p /work/sbx" }
	for _, n in ipairs(names) do
		s[#s + 1] = ("cat > /work/sbx/%s.lua <<'EOF'\n%sEOF"):format(n, planted(marker))
	end
	return table.concat(s, "\n") .. "\n"
end

local LAZY = { "behaviour", "facts", "pipeline", "report", "setid", "written", "sink" }

describe("start-up [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	describe("libedit", function()
		local maps = 'io.write(io.open("/proc/self/maps"):read("a"))'

		it("is not in a script's address space", function()
			local out, err, code = from("/", "", "-e", maps)
			assert.are.equal("", err)
			assert.are.equal(0, code)
			assert.matches("libc.so", out, 1, true) -- the maps were read
			assert.is_nil(out:find("libedit", 1, true), "a script mapped libedit")
		end)

		it("is in the REPL's, and the REPL still runs lines", function()
			local out, _, code = from("/", maps .. "\nprint('two', 1 + 1)\n", "-i")
			assert.are.equal(0, code)
			assert.matches("/libedit.so", out, 1, true)
			assert.matches("two\t2\n", out, 1, true)
		end)
	end)

	describe("libmagic", function()
		local maps = 'io.write(io.open("/proc/self/maps"):read("a"))'

		it("is never mapped by sbxlua: the first file typed is typed by the worker", function()
			local code_ = 'local core = require "sbx.core"; ' .. maps
				.. '; io.write("--\\n"); io.write(assert(core.filetype("#!/bin/sh\\n")), "\\n"); ' .. maps
			local out, err, code = from("/", "", "-e", code_)
			assert.are.equal("", err)
			assert.are.equal(0, code)
			local first, second = out:match("^(.-)%-%-\n(.*)$")
			assert.truthy(first, out)
			assert.matches("libc.so", second, 1, true) -- the maps were read
			assert.matches("POSIX shell script", second, 1, true)
			assert.is_nil(first:find("libmagic", 1, true), "libmagic mapped before a file was typed")
			assert.is_nil(second:find("libmagic", 1, true), "libmagic mapped by sbxlua")
		end)
	end)

	describe("the behaviour summary's modules", function()
		it("are not read by a plain run, and are by --behaviour", function()
			if S.asan then pending("an instrumented sbxlua under strace") return end
			local t, code = opened("/bin/true")
			assert.are.equal(0, code)
			assert.matches("/sbx/report.lua", t, 1, true) -- what the run uses is seen
			assert.is_nil(t:find("/sbx/behaviour.lua", 1, true), "a plain run read sbx.behaviour")
			assert.is_nil(t:find("/sbx/facts.lua", 1, true), "a plain run read sbx.facts")
			t, code = opened("--behaviour", "/bin/true")
			assert.are.equal(0, code)
			assert.matches("/sbx/behaviour.lua", t, 1, true)
			assert.matches("/sbx/facts.lua", t, 1, true)
		end)
	end)

	-- libmagic (loaded by the inspection worker, started on the first file
	-- typed) is for the program's own files: the dot files the tree placed
	-- and the node under the program's bind are the tree's, and typing them
	-- would start it
	describe("libmagic", function()
		-- whether a process of the run opened libmagic, and the status;
		-- never sbxlua's own (strace -f: the worker is its child)
		local function magic(...)
			local tr = os.tmpname()
			local args = {}
			for i, a in ipairs { ... } do args[i] = S.q(a) end
			local _, code = S.sh("strace -f -qq -e trace=openat,open -o " .. S.q(tr) .. " " .. S.q(bin)
				.. " run.lua " .. table.concat(args, " ") .. " 2>/dev/null </dev/null")
			local t = S.read(tr) or ""
			os.remove(tr)
			local main, by = t:match("^(%d+) "), nil
			for pid, line in t:gmatch("(%d+) +([^\n]*)") do
				if line:find("libmagic", 1, true) then by = pid end
			end
			assert.are_not.equal(main, by, "sbxlua opened libmagic")
			return by ~= nil, code
		end

		it("is not loaded by a run that wrote nothing of its own, and is by one that did", function()
			if S.asan then pending("an instrumented sbxlua under strace") return end
			local d, rm = S.tmpdir()
			local prog = d .. "/prog.sh"
			S.write(prog, "#!/bin/sh\ncat ~/.profile >/dev/null\n")
			os.execute("chmod 755 " .. S.q(prog))
			local loaded, code = magic("/bin/true")
			assert.are.same({ false, 0 }, { loaded, code })
			-- the program bound at /work: the node under it is the tree's
			loaded, code = magic(prog)
			assert.are.same({ false, 0 }, { loaded, code })
			-- a file of its own, and a dot file it changed
			loaded, code = magic("/bin/sh", "-c", "echo x > /tmp/x")
			assert.are.same({ true, 0 }, { loaded, code })
			loaded, code = magic("/bin/sh", "-c", "echo x >> ~/.profile")
			assert.are.same({ true, 0 }, { loaded, code })
			rm()
		end)
	end)

	-- A box run with --rw DIR:/work writes sbx/*.lua into DIR, the
	-- working directory of the sbxlua that ran it: what that sbxlua loads
	-- after the box is sbxlua's own.
	describe("a module loaded after the box", function()
		it("run.lua --behaviour and --json from the directory the box wrote load none of its files", function()
			local d, rm = S.tmpdir()
			os.execute("chmod 777 " .. S.q(d))
			box_writable(d)
			local marker = d .. "/pwned"
			local _, err, code = from(d, "", "run.lua", "--rw", d .. ":/work", "--behaviour", "--json", "r.json",
				"/bin/sh", "-c", plant_script(marker, LAZY))
			local written, ran, json = S.read(d .. "/sbx/behaviour.lua"), S.read(marker), S.read(d .. "/r.json")
			-- the next run from there, the files in place
			local _, err2, code2 = from(d, "", "run.lua", "--behaviour", "/bin/true")
			local ran2 = S.read(marker)
			rm()
			assert.matches("return setmetatable", written or "", 1, true) -- the box did plant them
			assert.is_nil(ran, "a module the box wrote ran on the host after its run")
			assert.is_nil(ran2, "a module the box wrote ran on the host in the next run")
			assert.are.equal(0, code, err)
			assert.matches("sandbox: exit 0\n", err, 1, true)
			assert.matches('"behaviour":', json or "", 1, true)
			assert.are.equal(0, code2, err2)
			assert.matches("sandbox: exit 0\n", err2, 1, true)
		end)

		it("a script that asks for the result only after the box loads sbx.behaviour from sbxlua's directory", function()
			local d, rm = S.tmpdir()
			local sd, srm = S.tmpdir()
			os.execute("chmod 777 " .. S.q(d))
			box_writable(d)
			local marker = d .. "/pwned"
			local script = sd .. "/after.lua"
			local f = assert(io.open(script, "w"))
			f:write([[
local pipeline = require "sbx.pipeline"
local o = { prog = "/bin/sh", args = { "-c", arg[2] }, rw = { { src = arg[1], dst = "/work" } } }
assert(pipeline.settle(o))
local r, info = pipeline.run(o)
assert(r, info and info.msg)
local loaded = package.loaded["sbx.behaviour"] ~= nil
local res = pipeline.result(r, info, pipeline.collect(r, info))
print(loaded, r.outcome, type(res.behaviour), package.searchpath("sbx.behaviour", package.path))
]])
			f:close()
			local out, err, code = from(d, "", script, d, plant_script(marker, LAZY))
			local written, ran = S.read(d .. "/sbx/behaviour.lua"), S.read(marker)
			local cfg = S.sh(S.q(bin) .. " -e 'io.write(package.loaded[\"sbx.config\"].luadir)'")
			rm()
			srm()
			assert.matches("return setmetatable", written or "", 1, true)
			assert.is_nil(ran, "a module the box wrote ran on the host")
			assert.are.equal(0, code, err)
			-- not loaded before the box; the summary made after it, from
			-- the module in sbxlua's own directory
			assert.are.equal(("false\texit\ttable\t%s/sbx/behaviour.lua\n"):format(cfg), out)
		end)
	end)
end)
