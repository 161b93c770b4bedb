-- SPDX-License-Identifier: MIT
-- The settled request (sbx.pipeline.settle): the options settled once
-- into what every later step reads and none writes.  The same as root
-- and as uid 65534.
local S = require "support"
local pipeline = require "sbx.pipeline"

describe("the settled request [" .. S.priv .. "]", function()
	it("is settled once: the profile, its filter, mode and table; the options typed stay as typed", function()
		local o = { prog = "/bin/true", args = {}, profile = "watch" }
		local req = assert(pipeline.settle(o))
		assert.are.equal("watch", req.profile)
		assert.is_truthy(req.filter)
		assert.are.equal("string", type(req.mode))
		assert.are.equal("table", type(req.notify))
		assert.are.equal("/bin/true", req.prog)
		-- the options given are not changed
		assert.is_nil(o.filter)
		assert.is_nil(o.mode)
		assert.is_nil(o.notify)
	end)

	it("refuses every write, naming the field, and walks its fields with pairs", function()
		local req = assert(pipeline.settle { prog = "/bin/true", args = {} })
		local ok, err = pcall(function() req.profile = "none" end)
		assert.is_false(ok)
		assert.matches("the settled request is read-only (a write of 'profile')", err, 1, true)
		ok, err = pcall(function() req.new_field = 1 end)
		assert.is_false(ok)
		assert.matches("a write of 'new_field'", err, 1, true)
		assert.are.equal("default", req.profile)
		local keys = {}
		for k in pairs(req) do keys[#keys + 1] = k end
		table.sort(keys)
		assert.are.same({ "args", "filter", "mode", "notify", "profile", "prog" }, keys)
	end)

	it("refuses a profile that is not there with the option it concerns", function()
		local req, err = pipeline.settle { prog = "/bin/true", profile = "no-such-profile" }
		assert.is_nil(req)
		assert.are.equal("--profile", err.option)
	end)

	it("builds and runs a box from the request, which no step writes", function()
		local req = assert(pipeline.settle { prog = "/bin/echo", args = { "hi" }, stdout = "capture",
			stderr = "capture", cgroup = false })
		local r, info = pipeline.run(req)
		assert.is_truthy(r, info and info.msg)
		assert.are.equal("hi\n", r.stdout)
		assert.are.equal(0, r.code)
	end)

	it("checks its arguments", function()
		assert.has_error(function() pipeline.settle("x") end, "bad argument #1 to 'settle' (table expected, got string)")
		assert.has_error(function() pipeline.freeze(nil) end, "bad argument #1 to 'freeze' (table expected, got nil)")
	end)
end)
