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

	-- what an option needs or excludes, from the option records alone
	it("refuses an option another option's value makes meaningless (sbx.options.refused)", function()
		local options = require "sbx.options"
		assert.is_nil(options.refused("run", { net = "sink", pcap = "x" }))
		assert.are.equal("--pcap: only with --net sink", options.refused("run", { pcap = "x" }))
		assert.are.equal("--sink-ports: only with --net sink", options.refused("run", { sink_ports = { 25 } }))
		assert.are.equal("--html: the pages of a batch's runs, not with --merge",
			options.refused("batch", { html = {}, merge = true }))
		-- run.lua's --html has no such rule
		assert.is_nil(options.refused("run", { html = "x", merge = true }))
		assert.has_error(function() options.refused(nil, {}) end,
			"bad argument to 'refused' (a script's name and its options expected)")
		assert.has_error(function() options.refused("run", "x") end)
	end)

	it("the shared helpers check their arguments", function()
		local json = require "sbx.json"
		assert.are.same({ "a", "b", "c" }, json.sorted_keys { c = 1, a = 2, b = 3 })
		assert.has_error(function() json.sorted_keys(7) end, "bad argument #1 to 'sorted_keys' (table expected, got number)")
		local shell = require "sbx._shell"
		assert.has_error(function() shell.private_dir("/tmp", "../x") end)
		assert.has_error(function() shell.private_dir(nil, "oci") end)
		assert.is_nil(shell.read_file("/nonexistent/x"))
		assert.matches("^root:", shell.read_file("/etc/passwd"))
		assert.has_error(function() shell.read_file(nil) end, "bad argument #1 to 'read_file' (string expected, got nil)")
		assert.has_error(function() require("sbx._sigma_events").of({}, "no-such-category") end)
		assert.has_error(function() require("sbx.words").limit_text("nonsense") end)
		local kit = require "sbx.rulekit"
		assert.is_true(kit.matches("crontab -e", { "^at ", "^crontab " }))
		assert.is_false(kit.matches("crontab -e", {}))
		assert.has_error(function() kit.matches(nil, {}) end, "bad argument #1 to 'matches' (string expected, got nil)")
		assert.has_error(function() kit.matches("x", "^x") end, "bad argument #2 to 'matches' (table expected, got string)")
		local F = { refused = { { call = "open" }, { call = "reboot" } } }
		assert.are.equal("called reboot (refused)", kit.refused_call(F, { reboot = true, kexec_load = true }))
		assert.is_nil(kit.refused_call(F, { mount = true }))
		assert.has_error(function() kit.refused_call({}, {}) end, "bad argument #1 to 'refused_call' (a run's facts expected)")
		assert.has_error(function() kit.refused_call(F, "reboot") end,
			"bad argument #2 to 'refused_call' (table expected, got string)")
		local argcheck = require("sbx._arg").check
		assert.are.equal("x", argcheck("x", "string", 1, "f"))
		assert.has_error(function() argcheck(7, "string", 2, "f") end, "bad argument #2 to 'f' (string expected, got number)")
		assert.has_error(function() argcheck(7, "string") end,
			"bad argument to 'check' (a value, a type's name, a position and a function's name expected)")
		local root, msg, opt = require("sbx.backend.image").unpacked(nil)
		assert.is_nil(root)
		assert.are.equal("--image nil: expected DIR@sha256:<digest>", msg)
		assert.are.equal("--image", opt)
		local options = require "sbx.options"
		local shown = options.shown("run")
		assert.are.same({ "-h --help", nil, "print the script's help and exit" }, shown[#shown])
		for _, o in ipairs(shown) do assert.is_nil(o.hidden) end
		assert.has_error(function() options.shown(nil) end, "bad argument #1 to 'shown' (string expected, got nil)")
		local cli = { name = "run.lua", options = options.of("run"), arguments = options.PROGRAM }
		local o = options.parse_program(cli, { "--wall", "5", "/bin/echo", "a", "b" })
		assert.are.same({ "/bin/echo", { "a", "b" } }, { o.prog, o.args })
		assert.has_error(function() options.parse_program(cli, "/bin/echo") end,
			"bad argument #2 to 'parse_program' (table expected, got string)")
	end)
end)
