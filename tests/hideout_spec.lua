-- SPDX-License-Identifier: MIT
-- A box that takes its own rights away from what it wrote (a file of
-- mode 0000 in a directory of mode 0000) hides none of it: the walk of
-- the written places (core/super/capture.c) raises the mode of that
-- node alone, reads it, and puts the mode back, so the record, the
-- --keep copy and the YARA scan have its bytes; a host directory bound
-- --rw keeps the modes the box left.  What the walk still cannot read
-- is named, never passed over.  As root (whose rights the modes never
-- limit) and as uid 65534 (the case the walk answers).
local S = require "tests.support"
local core = require "sbx.core"

local HIDE = "mkdir -p %s/d/in && printf 'HIDDEN-PAYLOAD' > %s/d/in/f && chmod 0 %s/d/in/f %s/d/in %s/d"

local function hide(at)
	return HIDE:format(at, at, at, at, at)
end

describe("hideout [" .. S.priv .. "]", function()
	it("a file of mode 0000 under directories of mode 0000 is recorded, typed, hashed and kept", function()
		local dir, rm = S.tmpdir()
		os.execute("chmod 0755 " .. S.q(dir))
		local keep = dir .. "/keep"
		local _, err, code, res = S.json_run("--explore", "--keep", keep, "sh", "-c", hide("/tmp"))
		local copy = S.read(keep .. "/tmp/d/in/f")
		rm()
		assert.are.equal(0, code, err)
		local f
		for _, x in ipairs(res.files) do
			if x.path == "/tmp/d/in/f" then f = x end
		end
		assert(f, err)
		assert.are.equal("0000", f.mode)
		assert.is_nil(f.unread)
		assert.are.equal(core.sha256("HIDDEN-PAYLOAD"), f.sha256)
		assert.are.equal("HIDDEN-PAYLOAD", copy)
		assert.is_nil(res.files_bounds and res.files_bounds.partial)
		local dropped
		for _, d in ipairs(res.behaviour.files_dropped) do
			if d.path == "/tmp/d/in/f" then dropped = d end
		end
		assert(dropped and dropped.type, err)
		assert.are.equal("0000", dropped.mode)
	end)

	it("in a host directory bound --rw, the modes the box left stay on the host", function()
		local dir, rm = S.tmpdir()
		os.execute("chmod 0777 " .. S.q(dir))
		local _, err, code, res = S.json_run("--rw", dir, "sh", "-c", hide(dir))
		-- each mode looked at, then opened up one level to look below it
		local modes = {}
		for _, p in ipairs { "/d", "/d/in", "/d/in/f" } do
			modes[#modes + 1] = S.sh("stat -c %a " .. S.q(dir .. p)):gsub("%s+$", "")
			os.execute("chmod 0700 " .. S.q(dir .. p))
		end
		local content = S.read(dir .. "/d/in/f")
		rm()
		assert.are.equal(0, code, err)
		assert.are.same({ "0", "0", "0" }, modes)
		assert.are.equal("HIDDEN-PAYLOAD", content)
		local f
		for _, x in ipairs(res.files) do
			if x.path == dir .. "/d/in/f" then f = x end
		end
		assert(f, err)
		assert.are.equal(core.sha256("HIDDEN-PAYLOAD"), f.sha256)
	end)

	it("batch.lua --yara matches a dropped file of mode 0000", function()
		local dir, rm = S.tmpdir()
		S.write(dir .. "/h.yar", 'rule hidden { strings: $p = "HIDDEN-PAYLOAD" condition: $p }\n', "0644")
		os.execute("mkdir " .. S.q(dir .. "/s"))
		-- the rule's string is not in the sample's own text
		S.write(dir .. "/s/hide.sh", "#!/bin/sh\n" .. hide("/tmp"):gsub("'HIDDEN%-PAYLOAD'", "'HIDDEN-%%s' PAYLOAD")
			.. "\n", "0755")
		os.execute("chmod -R a+rX " .. S.q(dir))
		local out, code = S.sh(S.bin .. " batch.lua --quiet -j 1 --yara " .. S.q(dir .. "/h.yar") .. " "
			.. S.q(dir .. "/s") .. " 2>&1")
		rm()
		assert.are.equal(0, code, out)
		local rec = require("cjson").decode(out)
		local m = rec.run.yara.matches
		assert.are.equal(1, #m, out)
		assert.are.same({ "hidden", "dropped", "/tmp/d/in/f" }, { m[1].rule, m[1].what, m[1].file })
	end)

	it("a written file the walk did not read whole is named in run.yara.stopped, never passed over", function()
		local yara = require "sbx.yara"
		local items, missing = yara.items(nil, nil, { files = {
			{ type = "file", path = "/tmp/huge", unread = "bound" },
			{ type = "file", path = "/tmp/gone", unread = "ESTALE" },
			{ type = "file", path = "/tmp/none" },
			{ type = "file", path = "/tmp/kept", sha256 = core.sha256("") },
			{ type = "symlink", path = "/tmp/l" },
		} })
		assert.are.same({}, items)
		assert.are.same({
			{ file = "/tmp/huge", what = "dropped", why = "bound" },
			{ file = "/tmp/gone", what = "dropped", why = "ESTALE" },
			{ file = "/tmp/none", what = "dropped", why = "not read" },
			{ file = "/tmp/kept", what = "dropped", why = "not kept" },
		}, missing)
	end)
end)
