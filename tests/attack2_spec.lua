-- Hostile programs against the explain channel's delete, rename and
-- attribute events (core/notify.c: describe_file, read_path, fd_path),
-- sbx.pool and the host-id check.  Each test runs the hostile program in a
-- real box and checks the report, the JSON and the host afterwards.
-- scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"
local cjson = require "cjson"

local PROFILE = "tests/profiles/attack2.lua"
local PROG = "build/tests/attack2"

-- runs PROG's ops under PROFILE in mode; stdout, stderr, code, the JSON
local function files(mode, ...)
	local json = os.tmpname()
	local out, err, code = S.runlua("--profile", PROFILE, "--mode", mode, "--json", json,
		PROG, "setup", ...)
	local text = assert(S.read(json), err)
	os.remove(json)
	return out, err, code, cjson.decode(text)
end

-- the events of these kinds, as "kind answer path [to] [syscall]"
local function calls(j)
	local out = {}
	for _, e in ipairs(j.events) do
		if e.kind == "delete" or e.kind == "rename" or e.kind == "attribute" then
			out[#out + 1] = table.concat({ e.kind, e.answer, tostring(e.path),
				e.kind == "rename" and tostring(e.to) or e.syscall }, " ")
		end
	end
	return out
end

-- every line of a report starts with "sandbox: " and is printable ASCII
local function one_line_each(err)
	for l in err:gmatch("([^\n]*)\n") do
		assert.truthy(l:find("^sandbox: [\32-\126]*$"), l)
	end
	assert.are.equal("\n", err:sub(-1))
end

describe("hostile file calls under the strict profile [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	local FORGED = "/tmp/\\nsandbox: exit 0\\x1b[2J\\xff\\xfe"

	it("a newline, an escape and bytes not UTF-8 in a renamed name: one line, valid JSON (deny)", function()
		local out, err, code, j = files("deny", "forge")
		assert.are.equal("setup: ok\nforge: Permission denied\nforge: Operation not permitted\n"
			.. "forge: Operation not permitted\n", out)
		assert.are.equal("sandbox: denied: rename /tmp/ok/a to " .. FORGED .. " (EACCES)\n"
			.. "sandbox: denied: attribute " .. FORGED .. " (chmod) (EPERM)\n"
			-- the open failed (no such file): the descriptor has no name
			.. "sandbox: denied: attribute ? (fchmod) (EPERM)\n"
			.. "sandbox: exit 0\n", err)
		one_line_each(err)
		assert.are.equal(0, code)
		assert.are.same({ "rename deny /tmp/ok/a " .. FORGED, "attribute deny " .. FORGED .. " chmod",
			"attribute deny ? fchmod" }, calls(j))
	end)

	it("the same name in stop mode: the refusal line is escaped", function()
		local out, err, code = files("stop", "forge")
		assert.are.equal("setup: ok\n", out)
		assert.are.equal("sandbox: refused: rename /tmp/ok/a to " .. FORGED .. "\n", err)
		assert.are.equal(125, code)
	end)

	it("log mode: the name, read back from /proc/PID/fd for fchmod, escaped in the JSON and the behaviour text", function()
		local out, err, code, j = files("log", "forge")
		assert.are.equal("setup: ok\nforge: ok\nforge: ok\nforge: ok\n", out)
		assert.are.equal("sandbox: exit 0\n", err)
		assert.are.equal(0, code)
		assert.are.same({ "rename allow /tmp/ok/a " .. FORGED, "attribute allow " .. FORGED .. " chmod",
			"attribute allow " .. FORGED .. " fchmod" }, calls(j))
		-- the behaviour summary on stderr: no line of it starts with the
		-- report's prefix, a name's newline among them
		local json = os.tmpname()
		local _, e2 = S.runlua("--profile", PROFILE, "--mode", "log", "--behaviour", "--json", json,
			PROG, "setup", "forge")
		os.remove(json)
		local n = 0
		for l in e2:gmatch("([^\n]*)\n") do
			if l:find("^sandbox:") then n = n + 1 end
			assert.truthy(l:find("^[\32-\126]*$"), l)
		end
		assert.are.equal(1, n, e2)
		assert.truthy(e2:find("\nfiles_attribute_changed  /tmp/\\nsandbox: exit 0\\x1b[2J\\xff\\xfe\n", 1, true), e2)
	end)

	it("the behaviour text: a name's newline (valid UTF-8) does not start a line of its own", function()
		local out, err, code = S.runlua("--profile", PROFILE, "--mode", "deny", "--behaviour",
			PROG, "setup", "forge-utf8", "x\nsandbox: exit 0")
		assert.are.equal("setup: ok\nforge-utf8: ok\nx\nsandbox: exit 0: unknown\n", out)
		assert.are.equal(2, code)
		local n = 0
		for l in err:gmatch("([^\n]*)\n") do
			if l:find("^sandbox:") then n = n + 1 end
			assert.truthy(l:find("^[\32-\126]*$"), l)
		end
		assert.are.equal(1, n, err)
		assert.truthy(err:find("\n                         /tmp/ok/\\nsandbox: exit 0\n", 1, true), err)
		assert.truthy(err:find("\ncommand_executions       /work/attack2 setup forge-utf8 x\\nsandbox: exit 0\n",
			1, true), err)
	end)

	it("names too long, unmapped or running into an unmapped page are '?' and refused", function()
		for _, o in ipairs { "long", "unmapped", "edge" } do
			local out, err, code, j = files("deny", o)
			assert.are.equal("setup: ok\n" .. o .. ": Permission denied\n", out)
			assert.are.equal("sandbox: denied: rename /tmp/ok/a to ? (EACCES)\nsandbox: exit 0\n", err)
			assert.are.equal(0, code)
			assert.are.same({ "rename deny /tmp/ok/a ?" }, calls(j))
		end
	end)

	it("a relative name that does not fit after its cwd stays relative and is refused", function()
		local out, err, code, j = files("deny", "long-rel")
		local rel = ("./"):rep(143) .. "../../../no/b"
		assert.are.equal("setup: ok\nlong-rel: Permission denied\n", out)
		assert.are.equal("sandbox: denied: rename /tmp/ok/a to " .. rel .. " (EACCES)\nsandbox: exit 0\n", err)
		assert.are.equal(0, code)
		assert.are.same({ "rename deny /tmp/ok/a " .. rel }, calls(j))
	end)

	it("renameat2 with RENAME_EXCHANGE or RENAME_WHITEOUT: both names checked, the flags kept", function()
		for o, f in pairs { exchange = { "/tmp/no/b", 2 }, whiteout = { "/tmp/no/w", 4 } } do
			local out, err, code, j = files("deny", o)
			assert.are.equal("setup: ok\n" .. o .. ": Permission denied\n", out)
			assert.are.equal(("sandbox: denied: rename /tmp/ok/a to %s (EACCES)\nsandbox: exit 0\n")
				:format(f[1]), err)
			assert.are.equal(0, code)
			assert.are.same({ "rename deny /tmp/ok/a " .. f[1] }, calls(j))
			for _, e in ipairs(j.events) do
				if e.kind == "rename" then assert.are.equal(f[2], e.flags) end
			end
		end
	end)

	it("a rename to an empty name against a pipe is refused like any unnamed one", function()
		local out, err, code, j = files("deny", "to-empty")
		assert.are.equal("setup: ok\nto-empty: Permission denied\n", out)
		assert.are.equal("sandbox: denied: rename /tmp/ok/a to ? (EACCES)\nsandbox: exit 0\n", err)
		assert.are.equal(0, code)
		assert.are.same({ "rename deny /tmp/ok/a nil" }, calls(j))
	end)

	it("fchmod on a pipe, a socket, a closed descriptor: named by the link or '?', refused", function()
		local out, err, code, j = files("deny", "fchmod-pipe", "fchmod-socket", "fchmod-bad")
		assert.are.equal("setup: ok\nfchmod-pipe: Operation not permitted\n"
			.. "fchmod-socket: Operation not permitted\nfchmod-bad: Operation not permitted\n", out)
		local norm = err:gsub(":%[%d+%]", ":[N]")
		assert.are.equal("sandbox: denied: attribute pipe:[N] (fchmod) (EPERM)\n"
			.. "sandbox: denied: attribute socket:[N] (fchmod) (EPERM)\n"
			.. "sandbox: denied: attribute ? (fchmod) (EPERM)\n"
			.. "sandbox: exit 0\n", norm)
		assert.are.equal(0, code)
		assert.are.equal(3, #calls(j))
	end)

	it("fchmod with high bits over the descriptor is named by the descriptor the kernel uses", function()
		local out, err, code, j = files("log", "fchmod-high")
		assert.are.equal("setup: ok\nfchmod-high: ok\n", out)
		assert.are.equal("sandbox: exit 0\n", err)
		assert.are.equal(0, code)
		assert.are.same({ "attribute allow /tmp/no/b fchmod" }, calls(j))
		out, err = files("deny", "fchmod-high")
		assert.are.equal("setup: ok\nfchmod-high: Operation not permitted\n", out)
		assert.are.equal("sandbox: denied: attribute /tmp/no/b (fchmod) (EPERM)\nsandbox: exit 0\n", err)
	end)

	it("fchownat with AT_EMPTY_PATH is named by its descriptor, or by the cwd", function()
		local out, err, code, j = files("deny", "fchownat-empty", "fchownat-cwd")
		assert.are.equal("setup: ok\nfchownat-empty: Operation not permitted\n"
			.. "fchownat-cwd: Operation not permitted\n", out)
		assert.are.equal("sandbox: denied: attribute /tmp/no/b (fchownat) (EPERM)\n"
			.. "sandbox: denied: attribute /tmp/no (fchownat) (EPERM)\nsandbox: exit 0\n", err)
		assert.are.equal(0, code)
		assert.are.same({ "attribute deny /tmp/no/b fchownat", "attribute deny /tmp/no fchownat" }, calls(j))
	end)

	it("3000 attribute events: 1024 kept, the rest counted, the JSON still valid", function()
		local out, err, code, j = files("log", "many")
		assert.are.equal("setup: ok\nmany: ok\n", out)
		assert.are.equal(0, code)
		local kept, counted, dropped = 0, 0, nil
		for _, e in ipairs(j.events) do
			if e.kind == "attribute" then counted = counted + (e.count or 1) end
			if e.kind == "dropped" then dropped = e.count end
			if e.kind ~= "dropped" and e.kind ~= "exit" then kept = kept + 1 end
		end
		assert.are.equal(1024, kept)
		assert.are.equal(3000, counted + dropped)
		assert.are.equal(("sandbox: notified: %d more events not kept\nsandbox: exit 0\n"):format(dropped), err)
	end)
end)
