-- sbx.report: the escaping of text from outside, and the events a core
-- result gives (the rest of the report is exercised through run.lua in
-- run_spec.lua, and against real boxes in evidence_spec.lua).
local report = require "sbx.report"

-- reads the escaped form back into bytes
local function unescape(s)
	local simple = { n = "\n", r = "\r", t = "\t", ["\\"] = "\\" }
	return (s:gsub("\\(.)(%x?%x?)", function(c, hex)
		if c == "x" then return string.char(tonumber(hex, 16)) end
		return assert(simple[c], "unknown escape") .. hex
	end))
end

describe("sbx.report.escape", function()
	it("passes printable ASCII unchanged", function()
		local s = {}
		for b = 0x20, 0x7e do
			if b ~= 0x5c then s[#s + 1] = string.char(b) end
		end
		s = table.concat(s)
		assert.are.equal(s, report.escape(s))
	end)

	it("writes every other byte as one line of printable ASCII", function()
		assert.are.equal("a\\nsandbox: exit 0", report.escape("a\nsandbox: exit 0"))
		assert.are.equal("\\x1b[2K\\r\\t\\\\\\x00\\x7f\\xc3\\xa9", report.escape("\27[2K\r\t\\\0\127é"))
		for b = 0, 255 do
			local e = report.escape(string.char(b))
			assert.is_nil(e:find("[^\32-\126]"), "byte " .. b)
		end
	end)

	it("can be read back: no two strings escape alike", function()
		local all = {}
		for b = 0, 255 do all[#all + 1] = string.char(b) end
		all = table.concat(all) .. "\\x41\\n\\\\"
		assert.are.equal(all, unescape(report.escape(all)))
	end)

	it("takes any value through tostring", function()
		assert.are.equal("42", report.escape(42))
		assert.are.equal("nil", report.escape(nil))
	end)
end)

describe("sbx.report.events for sbxlua stopped by the operator", function()
	it("interrupted: its own line naming the signal, 128+N, never a limit", function()
		for _, c in ipairs { { 2, "SIGINT", 130 }, { 15, "SIGTERM", 143 }, { 1, "SIGHUP", 129 } } do
			-- what a SIGKILL'd box measured must not turn it into a limit
			local r = { outcome = "interrupted", signal = c[1], signame = c[2], cpu = 10, memory_peak = 1 << 40 }
			local ev = report.events(r, { limits = { cpu = 1, memory = 1 << 20 } })
			assert.are.same({ { kind = "interrupted", signal = c[1], name = c[2] } }, ev)
			assert.are.equal("interrupted (" .. c[2] .. ")", report.line(ev[1]))
			assert.are.equal(c[3], report.exit_code(ev))
		end
	end)
end)

describe("sbx.report.events for the end of the box's init", function()
	it("killed after the program's execve: its own line, 128+N", function()
		local ev = report.events({ outcome = "init", signal = 9, signame = "SIGKILL" }, {})
		assert.are.same({ { kind = "killed", cause = "init", signal = 9, name = "SIGKILL" } }, ev)
		assert.are.equal("killed: the box's init died: signal 9 (SIGKILL)", report.line(ev[1]))
		assert.are.equal(137, report.exit_code(ev))
		ev = report.events({ outcome = "init", signal = 15, signame = "SIGTERM" }, {})
		assert.are.equal(143, report.exit_code(ev))
	end)

	it("ended before it: the box was never set up, 126", function()
		local ev = report.events({ outcome = "lost" }, {})
		assert.are.equal("lost: the box ended without a status", report.line(ev[1]))
		assert.are.equal(126, report.exit_code(ev))
	end)
end)

describe("sbx.report.events: limits on the kernel's record only", function()
	local MiB = 1024 * 1024
	local info = { limits = { cpu = 1, file_size = MiB, memory = 64 * MiB } }

	local function death(pid, name, sig, signame, extra)
		local d = { pid = pid, name = name, signal = sig, signame = signame, command = false }
		for k, v in pairs(extra or {}) do d[k] = v end
		return d
	end

	it("notes the other processes a limit killed, in the order of their lines", function()
		local r = { outcome = "exit", code = 0, death_coverage = "init", deaths_unseen = 0, deaths = {
			death(9, "spin", 24, "SIGXCPU", { cpu = 1.004 }),
			death(7, "head", 25, "SIGXFSZ", { file_size = MiB, file_at_limit = true }),
			death(8, "sh", 25, "SIGXFSZ", { file_size = MiB, file_at_limit = false }),
			death(6, "hog", 9, "SIGKILL", { cpu = 0.5 }),
			death(5, "spin2", 9, "SIGKILL", { cpu = 2 }),
			death(4, "sys", 31, "SIGSYS", { cpu = 9 }),
		} }
		local ev = report.events(r, info)
		local lines = {}
		for i, e in ipairs(ev) do lines[i] = report.line(e) end
		assert.are.same({
			"exit 0",
			"note: a process was killed by SIGKILL at the cpu limit (1 s)",
			"note: a process was killed by SIGXCPU at the cpu limit (1 s)",
			"note: a process was killed by SIGXFSZ at the file size limit (1 MiB)",
			"note: a process was killed by SIGXFSZ with no file at the file size limit (1 MiB)",
		}, lines)
		assert.are.equal(0, report.exit_code(ev))
		assert.are.same({ kind = "note", cause = "file_size", limit = MiB, signal = 25,
			name = "SIGXFSZ", pid = 7, command = "head",
			text = "note: a process was killed by SIGXFSZ at the file size limit (1 MiB)" }, ev[4])
		local d = report.deaths(r, info)
		assert.are.equal("init", d.coverage)
		assert.are.equal(0, d.unseen)
		-- the three a limit killed, and the SIGXFSZ noted without one
		assert.are.equal(4, #d.notable)
	end)

	it("notes the deaths the proc connector saw on what could be read of them", function()
		local r = { outcome = "exit", code = 0, death_coverage = "all", deaths_unseen = 0, deaths = {
			-- reaped before its record was read: the file at the box's
			-- limit, found by init's search at the end, is the evidence
			death(nil, "head", 25, "SIGXFSZ", { record = false, file_at_limit = true, seen = "connector" }),
			-- the search could not be made (the box ended first)
			death(nil, "dd", 25, "SIGXFSZ", { record = false, file_at_limit = false,
				files_partial = true, seen = "connector" }),
			-- no CPU time read: the signal alone
			death(nil, nil, 24, "SIGXCPU", { record = false, seen = "connector" }),
			-- read, and a limit of its own lower than the box's
			death(5, "w", 25, "SIGXFSZ", { file_size = 4096, file_at_limit = true, seen = "connector" }),
			death(nil, nil, 9, "SIGKILL", { record = false, seen = "connector" }),
		} }
		local ev = report.events(r, info)
		local lines = {}
		for i, e in ipairs(ev) do lines[i] = report.line(e) end
		assert.are.same({
			"exit 0",
			"note: a process was killed by SIGXCPU",
			"note: a process was killed by SIGXFSZ",
			"note: a process was killed by SIGXFSZ",
			"note: a process was killed by SIGXFSZ at the file size limit (1 MiB)",
		}, lines)
		local d = report.deaths(r, info)
		assert.are.equal("all", d.coverage)
		assert.are.equal(4, #d.notable)
		for _, n in ipairs(d.notable) do assert.are.equal("connector", n.seen) end
	end)

	it("says why the coverage is init's only", function()
		local d = report.deaths({ outcome = "exit", code = 0, death_coverage = "init",
			death_coverage_reason = "proc connector: subscribe: ECONNREFUSED", deaths = {} }, info)
		assert.are.same({ coverage = "init", reason = "proc connector: subscribe: ECONNREFUSED",
			unseen = 0, notable = {} }, d)
	end)

	it("says what the record shows after a limit's signal that was not the limit", function()
		local r = { outcome = "signal", signal = 24, signame = "SIGXCPU",
			deaths = { death(2, "prog", 24, "SIGXCPU", { cpu = 0.3, command = true }) } }
		local ev = report.events(r, info)
		assert.are.equal("killed: signal 24 (SIGXCPU) before the cpu limit (1 s)", report.line(ev[1]))
		assert.are.equal(152, report.exit_code(ev))
		-- without init's record, the signal alone
		ev = report.events({ outcome = "signal", signal = 24, signame = "SIGXCPU" }, info)
		assert.are.equal("killed: signal 24 (SIGXCPU)", report.line(ev[1]))
		assert.are.equal(152, report.exit_code(ev))
	end)

	it("names the command's own death at a limit, and lists it in the JSON's deaths", function()
		local r = { outcome = "signal", signal = 25, signame = "SIGXFSZ", deaths = {
			death(2, "dd", 25, "SIGXFSZ", { file_size = MiB, file_at_limit = true, command = true }) } }
		local ev = report.events(r, info)
		assert.are.equal("killed: file size limit (1 MiB)", report.line(ev[1]))
		assert.are.equal(124, report.exit_code(ev))
		assert.are.same({ { pid = 2, command = "dd", signal = 25, signame = "SIGXFSZ",
			limit = "file_size", is_command = true, seen = "init" } }, report.deaths(r, info).notable)
	end)
end)
