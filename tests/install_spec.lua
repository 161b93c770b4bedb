-- SPDX-License-Identifier: MIT
-- make install: every file sbxlua needs lands at its place (the scripts,
-- the modules where a stock lua5.4 finds them, sbx/core.so, the compiled
-- chunks under lib, the profiles, the rules, the man pages, the
-- completions); the installed sbxlua, run from /, finds its own modules
-- and no others, and runs a box; a stock lua5.4 requires the installed
-- sbx; the installed man page reads without a warning; the installed bash
-- completion completes.  Installed under a DESTDIR of the test's own,
-- with the default PREFIX (the build tree's ./sbxlua is not rebuilt); the
-- installed sbxlua finds the tree it was installed into (core/api/main.c,
-- `relocated`).
-- scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"

local PREFIX = "/usr/local"

-- the files under dir (relative, sorted), by find
local function files(dir, pattern, depth)
	local out = S.sh(("cd %s && find . %s -type f -name %s | sed 's|^\\./||' | sort")
		:format(S.q(dir), depth and "-maxdepth " .. depth or "", S.q(pattern)))
	local t = {}
	for l in out:gmatch("[^\n]+") do t[#t + 1] = l end
	return t
end

local function version()
	return (S.read("VERSION"):gsub("%s+$", ""))
end

describe("make install [" .. S.priv .. "]", function()
	local dest, cleanup, root
	local share, lmod, cmod, luac, bin, man
	setup(function()
		dest, cleanup = S.tmpdir()
		local out, code = S.sh("make -s install DESTDIR=" .. S.q(dest) .. " 2>&1")
		assert.are.equal(0, code, out)
		root = dest .. PREFIX
		share = root .. "/share/sbxlua"
		lmod = root .. "/share/lua/5.4"
		cmod = root .. "/lib/lua/5.4"
		luac = root .. "/lib/sbxlua/luac"
		bin = root .. "/bin/sbxlua"
		man = root .. "/share/man"
	end)
	teardown(function() cleanup() end)

	it("installs the scripts, every module, profile, call list and rule at its place", function()
		assert.are.same(files("lua", "*.lua", 1), files(share .. "/lua", "*.lua"))
		assert.are.same(files("lua/sbx", "*.lua"), files(lmod .. "/sbx", "*.lua"))
		assert.are.same(files("profiles", "*.lua"), files(share .. "/profiles", "*.lua"))
		assert.are.same(files("rules", "*.lua"), files(share .. "/rules", "*.lua"))
		assert.is_truthy(S.read(cmod .. "/sbx/core.so"))
		assert.is_truthy(S.read(bin))
		for _, f in ipairs { man .. "/man1/sbxlua.1", man .. "/man5/sbxlua-profile.5",
			root .. "/share/bash-completion/completions/sbxlua",
			root .. "/share/zsh/vendor-completions/_sbxlua",
			root .. "/share/fish/vendor_completions.d/sbxlua.fish" } do
			assert.is_truthy(S.read(f), f)
		end
	end)

	-- docs/interpreter.md, "Compiled chunks": made for where the modules
	-- are installed, not for the build tree; architecture specific, so
	-- under lib, none under share
	it("installs every script and module compiled for its installed path, under lib", function()
		local names = {}
		for _, f in ipairs(files(luac, "*.luac")) do
			local head = S.read(luac .. "/" .. f):match("^[^\n]*\n@([^\n]*)\n")
			names[#names + 1] = head or f
		end
		table.sort(names)
		local want = {}
		for _, f in ipairs(files("lua", "*.lua", 1)) do want[#want + 1] = PREFIX .. "/share/sbxlua/lua/" .. f end
		for _, f in ipairs(files("lua/sbx", "*.lua")) do want[#want + 1] = PREFIX .. "/share/lua/5.4/sbx/" .. f end
		local argparse = package.searchpath("argparse", package.path)
		if argparse then want[#want + 1] = argparse end
		table.sort(want)
		assert.are.same(want, names)
		assert.are.same({}, files(root .. "/share", "*.luac"))
	end)

	it("the installed sbxlua runs the standard box from /", function()
		local out, status = S.sh(("cd / && %s run.lua /bin/sh -c 'echo in-box' 2>&1 </dev/null"):format(S.q(bin)))
		assert.are.equal("in-box\nsandbox: exit 0\n", out)
		assert.are.equal(0, status)
	end)

	it("the installed sbxlua says its version and lists its scripts", function()
		local out, status = S.sh(S.q(bin) .. " --version")
		assert.are.equal(0, status)
		assert.matches("^sbxlua " .. version():gsub("%.", "%%.") .. " %(Lua 5%.4", out)
		out, status = S.sh(S.q(bin) .. " --help")
		assert.are.equal(0, status)
		for _, s in ipairs { "run.lua", "--explore", "learn.lua", "batch.lua", "check.lua" } do
			assert.matches(s, out, 1, true)
		end
		assert.is_nil(out:find("execute string", 1, true))
	end)

	-- a directory the caller runs from may hold what a box wrote there
	-- (--rw .:/work): neither its sbx/init.lua nor its run.lua runs
	it("the installed sbxlua loads its own modules and scripts only", function()
		local cwd, rm = S.tmpdir()
		os.execute("mkdir -p " .. S.q(cwd .. "/sbx"))
		for _, f in ipairs { "/sbx/init.lua", "/run.lua" } do
			local h = assert(io.open(cwd .. f, "w"))
			h:write("io.write('PLANTED') os.exit(3)\n")
			h:close()
		end
		local code = "local c = require 'sbx.config' " ..
			"io.write(package.searchpath('sbx', package.path), '\\n', package.path, '\\n', " ..
			"package.cpath, '\\n', c.luadir, '\\n', c.moddir, '\\n', c.luacdir, '\\n')"
		local out, status = S.sh(("cd %s && %s -e %s"):format(S.q(cwd), S.q(bin), S.q(code)))
		local run_out, run_status = S.sh(("cd %s && %s run.lua /bin/true 2>&1 </dev/null"):format(S.q(cwd), S.q(bin)))
		rm()
		assert.are.equal(0, status, out)
		local l = {}
		for line in out:gmatch("[^\n]+") do l[#l + 1] = line end
		assert.are.equal(lmod .. "/sbx/init.lua", l[1])
		assert.are.same({ share .. "/lua", lmod, luac }, { l[4], l[5], l[6] })
		for _, path in ipairs { l[2], l[3] } do
			for t in path:gmatch("[^;]+") do assert.are.equal("/", t:sub(1, 1), path) end
		end
		assert.are.equal("sandbox: exit 0\n", run_out)
		assert.are.equal(0, run_status)
	end)

	it("installs its code writable by its owner only", function()
		local out = S.sh(("find %s -perm /022 -printf '%%m %%p\\n'"):format(S.q(root)))
		assert.are.equal("", out)
	end)

	-- a box given its own modules writable would run its code in every
	-- later sbxlua, with the caller's rights
	it("refuses to make the installed modules, scripts or chunks writable in a box", function()
		for _, dir in ipairs { lmod .. "/sbx", lmod, share .. "/lua", luac } do
			local out, status = S.sh(("cd / && %s run.lua --rw %s:/x /bin/sh -c 'echo w > /x/init.lua' 2>&1 </dev/null")
				:format(S.q(bin), S.q(dir)))
			assert.are.equal(126, status, dir .. ": " .. out)
			assert.matches("sbxlua's own files", out, 1, true)
		end
		assert.is_nil(S.read(lmod .. "/init.lua"))
	end)

	it("a stock lua5.4 requires the installed sbx", function()
		local env = ("LUA_PATH=%s LUA_CPATH=%s"):format(S.q(lmod .. "/?.lua;" .. lmod .. "/?/init.lua;;"),
			S.q(cmod .. "/?.so;;"))
		local code = "local s = require 'sbx' io.write(s.version, ' ', " ..
			"package.searchpath('sbx.core', package.cpath), ' ', package.searchpath('sbx', package.path))"
		local out, status = S.sh(("cd / && env %s lua5.4 -e %s 2>&1"):format(env, S.q(code)))
		assert.are.equal(0, status, out)
		assert.are.equal(("%s %s/sbx/core.so %s/sbx/init.lua"):format(version(), cmod, lmod), out)
	end)

	it("a stock lua5.4 on the installed tree finds the profiles and the default rules", function()
		local env = ("LUA_PATH=%s LUA_CPATH=%s"):format(S.q(lmod .. "/?.lua;" .. lmod .. "/?/init.lua;;"),
			S.q(cmod .. "/?.so;;"))
		local code = "local p = require('sbx.profile').dir() local r = require('sbx.verdict').default_path() "
			.. "io.write(tostring(io.open(p .. '/default.lua') ~= nil), ' ', tostring(io.open(r .. '/box.lua') ~= nil), "
			.. "' ', p, ' ', r)"
		local out, status = S.sh(("cd / && env %s lua5.4 -e %s 2>&1"):format(env, S.q(code)))
		assert.are.equal(0, status, out)
		assert.matches("^true true ", out)
	end)

	it("installs man pages that read without a warning", function()
		for _, page in ipairs { man .. "/man1/sbxlua.1", man .. "/man5/sbxlua-profile.5" } do
			local out, status = S.sh(("MANWIDTH=80 man --warnings -l %s 2>&1 >/dev/null"):format(S.q(page)))
			assert.are.equal(0, status, out)
			assert.are.equal("", out)
			out, status = S.sh("mandoc -Tlint -Wwarning " .. S.q(page) .. " 2>&1")
			assert.are.equal(0, status, out)
		end
		-- every option run.lua takes is in the page
		local text = S.sh(("MANWIDTH=200 man -l %s 2>/dev/null"):format(S.q(man .. "/man1/sbxlua.1")))
		for _, o in ipairs(require("sbx.options").of("run")) do
			if not o.hidden then
				for name in o[1]:gmatch("%S+") do assert.matches(name, text, 1, true) end
			end
		end
	end)

	it("the installed bash completion completes run.lua --me to --mem", function()
		local comp = root .. "/share/bash-completion/completions/sbxlua"
		local script = ". %s; COMP_WORDS=(sbxlua %s); COMP_CWORD=%d; _sbxlua; printf '%%s\\n' \"${COMPREPLY[@]}\""
		local out, status = S.sh(("bash -c %s"):format(S.q(script:format(S.q(comp), "run.lua --me", 2))))
		assert.are.equal(0, status)
		assert.are.equal("--mem\n", out)
		out = S.sh(("bash -c %s"):format(S.q(script:format(S.q(comp), "run.lua --net s", 3))))
		assert.are.equal("sink\n", out)
		out = S.sh(("bash -c %s"):format(S.q(script:format(S.q(comp), "ba", 1))))
		assert.are.equal("batch.lua\n", out)
	end)

	it("the installed fish completion completes run.lua --me to --mem; zsh reads its own", function()
		if S.sh("command -v fish") == "" then return pending("fish is not installed (scripts/deps.sh test)") end
		if S.sh("command -v zsh") == "" then return pending("zsh is not installed (scripts/deps.sh test)") end
		local fish = root .. "/share/fish/vendor_completions.d/sbxlua.fish"
		local out, status = S.sh(("HOME=%s fish --no-config -c %s 2>&1"):format(S.q(dest),
			S.q(("source %s; complete -C 'sbxlua run.lua --me'"):format(S.q(fish)))))
		assert.are.equal(0, status, out)
		assert.are.equal("--mem", out:match("^([^\t\n]*)"))
		out, status = S.sh("zsh -n " .. S.q(root .. "/share/zsh/vendor-completions/_sbxlua") .. " 2>&1")
		assert.are.equal(0, status, out)
	end)
end)

describe("the build [" .. S.priv .. "]", function()
	-- what make would run from nothing (-n -B: nothing is built)
	local function plan(args)
		-- (without the caller's make variables: the test command runs the
		-- suite under `make check WERROR=-Werror`, which make passes on in
		-- MAKEFLAGS and in the environment)
		local out, code = S.sh("env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES -u WERROR make -n -B " .. args .. " 2>&1")
		assert.are.equal(0, code, out)
		return (out:gsub("\\\n", " "))
	end

	it("make install builds nothing for the tests", function()
		local out = plan("install DESTDIR=/nonexistent")
		assert.is_nil(out:find("build/tests", 1, true))
		assert.matches("build/sbx/core.so", out, 1, true)
	end)

	it("honours CPPFLAGS, CFLAGS and LDFLAGS; -Werror only in make dev", function()
		local out = plan("sbxlua build/sbx/core.so CPPFLAGS=-DSBX_PKG_TEST CFLAGS=-O1 LDFLAGS=-Wl,-O1")
		for line in out:gmatch("[^\n]+") do
			if line:match(" %-o ") then assert.matches("-O1", line, 1, true) end
			if line:match(" %-c ") then assert.matches("-DSBX_PKG_TEST", line, 1, true) end
			if line:match(" %-o sbxlua ") or line:match("%-shared") then
				assert.matches("-Wl,-O1", line, 1, true)
			end
		end
		assert.matches("-DSBX_PKG_TEST", out, 1, true)
		assert.is_nil(plan("all"):find("-Werror", 1, true))
		assert.matches("WERROR=-Werror", plan("dev"), 1, true)
	end)
end)

-- rockspec/: the sbx module for a stock Lua, built by luarocks; its lists
-- of sources and modules are the tree's
describe("the rockspec [" .. S.priv .. "]", function()
	local spec, path = {}, ("rockspec/sbxlua-%s-1.rockspec"):format(version())
	setup(function() assert(loadfile(path, "t", spec))() end)

	it("is the version's, and builds every C file of the module", function()
		assert.are.equal(version() .. "-1", spec.version)
		local core = spec.build.modules["sbx.core"]
		local want = {}
		for _, d in ipairs { "common", "child", "super", "api" } do
			for _, f in ipairs(files("core/" .. d, "*.c")) do
				if d .. "/" .. f ~= "api/main.c" then want[#want + 1] = "core/" .. d .. "/" .. f end
			end
			-- the one C++ file (core/common/tlsh.cc: libtlsh's class)
			for _, f in ipairs(files("core/" .. d, "*.cc")) do want[#want + 1] = "core/" .. d .. "/" .. f end
		end
		table.sort(want)
		local got = { table.unpack(core.sources) }
		table.sort(got)
		assert.are.same(want, got)
		assert.are.same({ "seccomp", "cap", "nettle", "fuzzy", "tlsh", "stdc++" }, core.libraries)
	end)

	it("installs every module of lua/sbx under its name", function()
		local want, got = {}, {}
		for _, f in ipairs(files("lua/sbx", "*.lua")) do
			local name = ("sbx." .. f:gsub("%.lua$", ""):gsub("/", ".")):gsub("%.init$", "")
			want[name] = "lua/sbx/" .. f
		end
		for name, file in pairs(spec.build.modules) do
			if name ~= "sbx.core" then got[name] = file end
		end
		assert.are.same(want, got)
	end)

	it("passes luarocks lint", function()
		if S.sh("command -v luarocks") == "" then return pending("luarocks is not installed") end
		local out, code = S.sh("luarocks lint " .. S.q(path) .. " 2>&1")
		assert.are.equal(0, code, out)
	end)
end)
