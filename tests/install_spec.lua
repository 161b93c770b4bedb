-- make install: every file sbxlua needs lands at its place (each module
-- under lua/, the profiles and their call lists, the rules, sbx/core.so),
-- and the installed modules run a box.  Installed under a DESTDIR of the
-- test's own; the installed tree is run by lua5.4 with its paths, since
-- the sbxlua binary looks for its modules where PREFIX said.
-- scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"

-- the files under dir (relative, sorted), by find
local function files(dir, pattern)
	local out = S.sh(("cd %s && find . -type f -name %s | sed 's|^\\./||' | sort"):format(S.q(dir), S.q(pattern)))
	local t = {}
	for l in out:gmatch("[^\n]+") do t[#t + 1] = l end
	return t
end

describe("make install [" .. S.priv .. "]", function()
	local dest, cleanup
	local share, lib
	setup(function()
		dest, cleanup = S.tmpdir()
		local out, code = S.sh("make -s install DESTDIR=" .. S.q(dest) .. " PREFIX=/usr/local 2>&1")
		assert.are.equal(0, code, out)
		share = dest .. "/usr/local/share/sbxlua"
		lib = dest .. "/usr/local/lib/lua/5.4"
	end)
	teardown(function() cleanup() end)

	it("installs every module, profile, call list and rule at its place", function()
		assert.are.same(files("lua", "*.lua"), files(share .. "/lua", "*.lua"))
		assert.are.same(files("profiles", "*.lua"), files(share .. "/profiles", "*.lua"))
		assert.are.same(files("rules", "*.lua"), files(share .. "/rules", "*.lua"))
		assert.is_truthy(S.read(lib .. "/sbx/core.so"))
		assert.is_truthy(S.read(dest .. "/usr/local/bin/sbxlua"))
	end)

	-- docs/interpreter.md, "Compiled chunks": made for where the modules
	-- are installed, not for the build tree
	it("installs every module compiled for its installed path", function()
		local names = {}
		for _, f in ipairs(files(share .. "/luac", "*.luac")) do
			local head = S.read(share .. "/luac/" .. f):match("^[^\n]*\n@([^\n]*)\n")
			names[#names + 1] = head or f
		end
		table.sort(names)
		local want = {}
		for _, f in ipairs(files("lua", "*.lua")) do want[#want + 1] = "/usr/local/share/sbxlua/lua/" .. f end
		local argparse = package.searchpath("argparse", package.path)
		if argparse then want[#want + 1] = argparse end
		table.sort(want)
		assert.are.same(want, names)
	end)

	it("the installed modules run the standard box", function()
		local code = ("package.path = %q .. package.path; package.cpath = %q .. package.cpath")
			:format(share .. "/lua/?.lua;" .. share .. "/lua/?/init.lua;", lib .. "/?.so;")
		-- the suite's interpreter, from anywhere (make asan's is ./sbxlua)
		local lua = S.lua:sub(1, 2) == "./" and S.sh("pwd"):gsub("\n$", "") .. S.lua:sub(2) or S.lua
		local out, status = S.sh(("cd / && %s -e %s %s /bin/sh -c 'echo in-box' 2>&1 </dev/null")
			:format(lua, S.q(code), S.q(share .. "/lua/run.lua")))
		assert.are.equal("in-box\nsandbox: exit 0\n", out)
		assert.are.equal(0, status)
	end)
end)
