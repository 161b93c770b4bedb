-- SPDX-License-Identifier: MIT
-- One set of conventions across the scripts: a usage error exits 126, a
-- missing input is an error, batch.lua takes options after its paths and
-- exits 128+N for the signal N that stopped it, and every environment
-- variable read is in the README's table.
-- scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"
local cjson = require "cjson"

-- Runs `sbxlua SCRIPT ARGS` (a shell string) in directory dir (default
-- the tree's); returns stdout, stderr, status.
local function script(name, args, dir)
	local bin = S.bin:sub(1, 1) == "/" and S.bin or os.getenv("PWD") .. "/" .. S.bin
	local cd = dir and ("cd " .. S.q(dir) .. " && ") or ""
	return S.sh_err(cd .. S.q(bin) .. " " .. name .. " " .. args)
end

local write = S.write

describe("conventions [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)
	local dir, done
	before_each(function()
		dir, done = S.tmpdir()
		os.execute("chmod 755 " .. S.q(dir))
	end)
	after_each(function() done() end)

	it("a usage error exits 126 in every script, in one wording", function()
		for _, name in ipairs { "run.lua", "learn.lua", "batch.lua", "check.lua" } do
			local out, err, code = script(name, "--no-such-option")
			assert.are.same({ "", "sbxlua: unknown option '--no-such-option' (see --help)\n", 126 },
				{ out, err, code }, name)
		end
		for name, what in pairs { ["run.lua"] = "PROG", ["learn.lua"] = "PROG", ["batch.lua"] = "PATH" } do
			local _, err, code = script(name, "")
			assert.are.same({ "sbxlua: missing argument '" .. what .. "' (see --help)\n", 126 }, { err, code }, name)
		end
	end)

	it("a missing input is an error (126; a program not found 127), never an empty success", function()
		local gone = dir .. "/gone"
		local out, err, code = script("batch.lua", "-q " .. S.q(gone))
		local _
		assert.are.same({ "", "sbxlua: " .. gone .. ": no such file\n", 126 }, { out, err, code })
		-- one missing among present ones: nothing runs
		write(dir .. "/p.sh", "#!/bin/sh\necho p\n", "755")
		out, err, code = script("batch.lua", "-q " .. S.q(dir .. "/p.sh") .. " " .. S.q(gone))
		assert.are.same({ "", "sbxlua: " .. gone .. ": no such file\n", 126 }, { out, err, code })
		_, err, code = script("batch.lua", "--merge " .. S.q(gone))
		assert.are.equal(126, code, err)
		assert.matches("^sbxlua: %-%-merge: .*No such file", err)
		-- a program not found: 127, as env, timeout and shells say it
		_, err, code = script("run.lua", S.q(gone))
		assert.are.equal(127, code, err)
		_, err, code = script("learn.lua", "-o " .. S.q(dir .. "/p.lua") .. " " .. S.q(gone))
		assert.are.equal(127, code, err)
		assert.is_nil(S.read(dir .. "/p.lua"))
	end)

	it("batch.lua takes options after its paths, never as a path; a path after --", function()
		write(dir .. "/p.sh", "#!/bin/sh\necho p\n", "755")
		write(dir .. "/-q", "#!/bin/sh\necho q\n", "755")
		local out, err, code = script("batch.lua", "p.sh --output x.jsonl --progress never -q", dir)
		assert.are.same({ "", "", 0 }, { out, err, code })
		local l = S.lines(S.read(dir .. "/x.jsonl") or "")
		assert.are.equal(1, #l)
		assert.are.equal("p.sh", cjson.decode(l[1]).program)
		assert.is_nil(S.read(dir .. "/--output"))
		-- after --, a word that looks like an option is a path
		out, err, code = script("batch.lua", "-q -- -q", dir)
		assert.are.equal(0, code, err)
		assert.are.equal("-q", cjson.decode(out).program)
		-- run.lua's words after PROG stay the program's own
		out, err, code = script("run.lua", "/bin/echo --json x.json", dir)
		assert.are.same({ "--json x.json\n", 0 }, { out, code }, err)
		assert.is_nil(S.read(dir .. "/x.json"))
	end)

	it("batch.lua stopped by SIGTERM exits 143, its lines whole", function()
		write(dir .. "/p1.sh", "#!/bin/sh\necho 1\n", "755")
		write(dir .. "/p2.sh", "#!/bin/sh\nexec sleep 600\n", "755")
		local o = dir .. "/out.jsonl"
		local p = assert(io.popen(("env --default-signal=TERM %s batch.lua -j 1 --sleep-skip 0 --progress never --output %s %s"
			.. " 2>%s </dev/null & echo $!; wait $!; echo $?"):format(S.bin, S.q(o), S.q(dir .. "/p1.sh") .. " "
			.. S.q(dir .. "/p2.sh"), S.q(dir .. "/err"))))
		local pid = p:read("l")
		-- the event: the first program recorded (the sleeper runs now or
		-- is about to; --sleep-skip 0: its sleep is not answered at once,
		-- or the batch could end before the signal)
		while #S.lines(S.read(o) or "") < 1 do os.execute("sleep 0.05") end
		os.execute("kill -TERM " .. pid)
		local status = p:read("l")
		p:close()
		local err = S.read(dir .. "/err")
		assert.are.equal("143", status, err)
		local data = S.read(o)
		assert.are.equal("\n", data:sub(-1))
		assert.are.equal(1, #S.lines(data))
		assert.are.equal("exit", cjson.decode(S.lines(data)[1]).outcome)
	end)

	it("every environment variable core/ and lua/ read is in the README's Environment table", function()
		local readme = assert(S.read("README.md"))
		local section = readme:match("\n## Environment\n(.-)\n## ")
		assert.is_string(section, "README.md has no Environment section")
		local src = S.sh("grep -rhoE '(os\\.)?getenv\\(\"[A-Z_]+\"\\)|getenv\\(name|getenv\\(envname|"
			.. "os\\.getenv\\(k\\)' core lua")
		local names = {}
		for n in src:gmatch('getenv%("([A-Z_]+)"%)') do names[n] = true end
		-- read through a variable: the Lua paths and LUA_INIT (main.c),
		-- podman's XDG_ directories (a list in podman.lua)
		for _, n in ipairs { "LUA_INIT", "LUA_INIT_5_4", "LUA_PATH", "LUA_PATH_5_4", "LUA_CPATH",
			"LUA_CPATH_5_4", "XDG_RUNTIME_DIR", "XDG_DATA_HOME", "XDG_CONFIG_HOME" } do
			names[n] = true
		end
		assert.truthy(next(names))
		for n in pairs(names) do
			assert.truthy(section:find("`" .. n .. "`", 1, true), n .. " is not in README.md's Environment table")
		end
		-- and the reads through a variable are still the ones listed
		assert.truthy(src:find("getenv(name", 1, true))
		assert.truthy(src:find("getenv(envname", 1, true))
		assert.truthy(src:find("os.getenv(k)", 1, true))
	end)
end)
