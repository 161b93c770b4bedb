-- SPDX-License-Identifier: MIT
-- The hashes analysts search by (core/common/hashes.c): MD5, SHA-1,
-- SHA-256, ssdeep and TLSH, of a string (core.hashes), of each dropped
-- file and of each payload executed from memory, each equal to the
-- reference tool's on the host (md5sum, sha1sum, sha256sum, ssdeep -b,
-- tlsh -f: scripts/deps.sh installs ssdeep and tlsh-tools).  As root and
-- as uid 65534.
local S = require "tests.support"
local core = require "sbx.core"

-- the reference tools' answers for a host file: { md5 =, ..., tlsh = }
-- (tlsh nil when the tool has none: too short, too uniform)
local function reference(path)
	local q = S.q(path)
	local h = {
		md5 = S.sh("md5sum < " .. q):match("^(%x+)"),
		sha1 = S.sh("sha1sum < " .. q):match("^(%x+)"),
		sha256 = S.sh("sha256sum < " .. q):match("^(%x+)"),
		ssdeep = S.sh("ssdeep -bs " .. q):match("\n([^,\n]+),"),
	}
	local t = S.sh("tlsh -f " .. q .. " 2>&1")
	h.tlsh = t:match("^(%x+)\t")
	return h
end

-- bytes from a fixed seed (the same in every run), n of them
local function bytes(n, seed)
	local out, x = {}, seed
	for i = 1, n do
		x = (x * 1103515245 + 12345) % 2147483648
		out[i] = string.char((x >> 16) % 256)
	end
	return table.concat(out)
end

local function have(tool)
	return select(2, S.sh("command -v " .. tool .. " >/dev/null")) == 0
end

describe("hashes [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	it("core.hashes equals md5sum, sha1sum, sha256sum, ssdeep -b and tlsh -f", function()
		if not (have("ssdeep") and have("tlsh")) then
			return pending("ssdeep or tlsh is not installed (scripts/deps.sh installs them)")
		end
		local dir, rm = S.tmpdir()
		-- sizes about the block sizes ssdeep chooses from (3 << k, 64 pieces
		-- each): core.hashes tells the engine the length first
		for _, n in ipairs { 0, 1, 191, 192, 193, 255, 256, 767, 769, 4096, 6143, 6145, 36000, 70000,
			196607, 196609, 1 << 20 } do
			local data = bytes(n, n + 7)
			S.write(dir .. "/d", data)
			local want, got = reference(dir .. "/d"), core.hashes(data)
			assert.are.same(want, got, ("%d bytes"):format(n))
		end
		-- text a TLSH needs variety for: uniform bytes give none
		local got = core.hashes(("a"):rep(5000))
		assert.is_nil(got.tlsh)
		assert.are.equal(64, #got.sha256)
		rm()
	end)

	it("core.hashes refuses what is not a string", function()
		for _, v in ipairs { {}, true, print } do
			local ok, msg = pcall(core.hashes, v)
			assert.is_false(ok)
			assert.truthy(tostring(msg):find("bad argument #1 to '[%w.]*hashes'"), msg)
		end
		assert.is_false((pcall(core.hashes)))
	end)

	it("a dropped file carries md5, sha1, sha256, ssdeep, tlsh and type, as the tools say", function()
		if not (have("ssdeep") and have("tlsh")) then
			return pending("ssdeep or tlsh is not installed (scripts/deps.sh installs them)")
		end
		local dir, rm = S.tmpdir()
		local data = bytes(9000, 3)
		S.write(dir .. "/src", data)
		os.execute("chmod -R a+rX " .. S.q(dir))
		local _, err, code, res = S.json_run("--explore", "--ro", dir .. "/src:/opt/src", "sh", "-c",
			"cp /opt/src /tmp/dropped.bin")
		local want = reference(dir .. "/src")
		rm()
		assert.are.equal(0, code, err)
		local seen
		for _, d in ipairs(res.behaviour.files_dropped) do
			if d.path == "/tmp/dropped.bin" then seen = d end
		end
		assert(seen, "no dropped file: " .. err)
		for _, k in ipairs { "md5", "sha1", "sha256", "ssdeep", "tlsh" } do
			assert.are.equal(want[k], seen[k], k)
		end
		assert.are.equal("data", seen.type)
		for _, d in ipairs(res.files_dropped) do
			if d.path == "/tmp/dropped.bin" then assert.are.equal(want.md5, d.md5) end
		end
	end)

	it("a payload executed from memory carries every hash of its bytes", function()
		if not (have("ssdeep") and have("tlsh")) then
			return pending("ssdeep or tlsh is not installed (scripts/deps.sh installs them)")
		end
		-- the payload is a copy of the program's own file
		local want = reference("build/tests/memfd_path")
		local _, err, code, res = S.json_run("--explore", "build/tests/memfd_path", "memfd")
		assert.are.equal(0, code, err)
		local mem = res.behaviour.memory_files or {}
		local payload
		for _, d in ipairs(res.behaviour.files_dropped) do
			if d.executed_from_memory then payload = d end
		end
		assert(payload, "no payload: " .. err .. " " .. #mem)
		for _, k in ipairs { "md5", "sha1", "sha256", "ssdeep", "tlsh" } do
			assert.are.equal(want[k], payload[k], k)
		end
	end)

	it("the sample's own hashes: the program run, or the script an interpreter is given", function()
		if not (have("ssdeep") and have("tlsh")) then
			return pending("ssdeep or tlsh is not installed (scripts/deps.sh installs them)")
		end
		local dir, rm = S.tmpdir()
		S.write(dir .. "/x.sh", "# " .. bytes(3000, 11):gsub("%z", "0") .. "\necho ran\n")
		os.execute("cp /bin/true " .. S.q(dir .. "/prog") .. " && chmod -R a+rX " .. S.q(dir))
		local want_script, want_prog = reference(dir .. "/x.sh"), reference(dir .. "/prog")
		local _, err, code, res = S.json_run("sh", dir .. "/x.sh")
		local _, err2, code2, res2 = S.json_run(dir .. "/prog")
		rm()
		assert(res and res.sample, err)
		assert(res2 and res2.sample, err2)
		assert.are.equal(0, code2, err2)
		assert.is_number(code)
		for _, k in ipairs { "md5", "sha1", "sha256", "ssdeep", "tlsh" } do
			assert.are.equal(want_script[k], res.sample[k], "script " .. k)
			assert.are.equal(want_prog[k], res2.sample[k], "program " .. k)
		end
		assert.are.equal(dir .. "/x.sh", res.sample.path)
		assert.truthy(res2.sample.type:find("^ELF"), res2.sample.type)
	end)

	it("sbx.sample.read refuses bad arguments", function()
		local sample = require "sbx.sample"
		assert.has_error(function() sample.read(nil) end, "bad argument #1 to 'read' (string expected, got nil)")
		assert.has_error(function() sample.read("sh", "x") end, "bad argument #2 to 'read' (table expected, got string)")
		assert.are.same({ nil, "not found" }, { sample.read("no-such-program-here") })
	end)
end)
