-- SPDX-License-Identifier: MIT
-- sbx.report: the escaping of text from outside, and the events a core
-- result gives (the rest of the report is exercised through run.lua in
-- run_spec.lua, and against real boxes in evidence_spec.lua).
local report = require "sbx.report"
local R = report
local L = require "sbx.limits"
local MiB, GiB = 1 << 20, 1 << 30

-- reads the escaped form back into bytes
-- The report's lines of a result's events (sbx.report.events, .line),
-- and the events.
local function event_lines(r, info)
	local ev, lines = report.events(r, info), {}
	for i, e in ipairs(ev) do lines[i] = report.line(e) end
	return lines, ev
end

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
		local lines, ev = event_lines(r, info)
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
		assert.are.same({
			"exit 0",
			"note: a process was killed by SIGXCPU",
			"note: a process was killed by SIGXFSZ",
			"note: a process was killed by SIGXFSZ",
			"note: a process was killed by SIGXFSZ at the file size limit (1 MiB)",
		}, event_lines(r, info))
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

describe("sbx.report: the words of a limit", function()
	it("prints sizes in the largest exact binary unit", function()
		assert.are.equal("512 MiB", R.format_size(512 * MiB))
		assert.are.equal("1 GiB", R.format_size(GiB))
		assert.are.equal("1536 MiB", R.format_size(3 * GiB // 2))
		assert.are.equal("64 KiB", R.format_size(65536))
		assert.are.equal("1000 B", R.format_size(1000))
		assert.are.equal("1025 KiB", R.format_size(1025 * 1024))
		assert.are.equal("0 B", R.format_size(0))
		assert.are.equal("2 TiB", R.format_size(2048 * GiB))
	end)

	it("prints durations in seconds", function()
		assert.are.equal("60 s", R.format_duration(60))
		assert.are.equal("60 s", R.format_duration(60.0))
		assert.are.equal("1.5 s", R.format_duration(1.5))
	end)

	it("words each report line", function()
		assert.are.equal("killed: memory limit (512 MiB)", R.killed_line("memory"))
		assert.are.equal("killed: cpu limit (30 s)", R.killed_line("cpu"))
		assert.are.equal("killed: process limit (128)", R.killed_line("tasks"))
		assert.are.equal("killed: output limit (16 MiB)", R.killed_line("output"))
		assert.are.equal("killed: wall clock (60 s)", R.killed_line("wall"))
		assert.are.equal("killed: file size limit (64 MiB)", R.killed_line("file_size"))
		local lim = assert(L.resolve { memory = "1536M", wall = "1.5" })
		assert.are.equal("killed: memory limit (1536 MiB)", R.killed_line("memory", lim))
		assert.are.equal("killed: wall clock (1.5 s)", R.killed_line("wall", lim))
		assert.has_error(function() R.killed_line("oops") end, "bad cause 'oops'")
	end)
	it("words what the record shows of a limit's signal that was not the limit", function()
		local small = assert(L.resolve { cpu = "2", file_size = "1M" })
		assert.are.equal("before the cpu limit (2 s)",
			R.not_limit_text({ signame = "SIGXCPU", cpu = 1.92 }, small))
		assert.are.equal("with no file at the file size limit (1 MiB)",
			R.not_limit_text({ signame = "SIGXFSZ", file_size = MiB, file_at_limit = false }, small))
		-- a search that stopped early, or for another size, says nothing
		assert.is_nil(R.not_limit_text({ signame = "SIGXFSZ", file_size = MiB,
			file_at_limit = false, files_partial = true }, small))
		assert.is_nil(R.not_limit_text({ signame = "SIGXFSZ", file_size = 4096,
			file_at_limit = false }, small))
		assert.is_nil(R.not_limit_text({ signame = "SIGXCPU" }, small))
		assert.is_nil(R.not_limit_text({ signame = "SIGKILL", cpu = 1 }, small))
	end)

	it("words a note on another process", function()
		local small = assert(L.resolve { file_size = "1M" })
		assert.are.equal("note: a process was killed by SIGXFSZ at the file size limit (1 MiB)",
			R.note_line("file_size", "SIGXFSZ", small))
		assert.are.equal("note: a process was killed by SIGKILL at the cpu limit (30 s)",
			R.note_line("cpu", "SIGKILL"))
		assert.has_error(function() R.note_line("oops", "SIGKILL") end, "bad cause 'oops'")
		assert.has_error(function() R.note_line("cpu", 9) end)
	end)

	it("describes the limits with their enforcement", function()
		local d = R.limit_lines(L.defaults, L.enforcement { enforcement = { memory = "sampled", tasks = "sampled",
			cpu = "sampled", wall = "supervisor", output = "supervisor" } })
		assert.are.equal(#L.names, #d)
		assert.are.equal("limit: wall 60 s (supervisor)", d[1])
		assert.are.equal("limit: cpu 30 s (sampled, box-wide; rlimit per process)", d[2])
		assert.are.equal("limit: memory 512 MiB (sampled)", d[3])
		d = R.limit_lines(assert(L.resolve { cpu = "300ms" }), L.enforcement { enforcement = { cpu = "none" } })
		assert.are.equal("limit: cpu 0.3 s (rlimit)", d[2])
		assert.are.equal("limit: open files 256 (rlimit)", d[6])
		assert.are.equal("limit: pending signals 1024 (rlimit)", d[10])
		assert.are.equal("limit: msgqueue 256 KiB (rlimit)", d[11])
		assert.are.equal("limit: inotify instances 8 (userns)", d[12])
		assert.are.equal("limit: inotify watches 8192 (userns)", d[13])
	end)

	it("words a note on another process's death", function()
		local small = assert(L.resolve { cpu = "2", file_size = "1M" })
		assert.are.same({ "note: a process was killed by SIGXCPU at the cpu limit (2 s)", "cpu" },
			{ R.death_note({ signal = 24, cpu = 2.1 }, small) })
		assert.are.same({ "note: a process was killed by SIGXCPU before the cpu limit (2 s)" },
			{ R.death_note({ signame = "SIGXCPU", cpu = 1.5 }, small) })
		assert.are.same({ "note: a process was killed by SIGXFSZ" },
			{ R.death_note({ signame = "SIGXFSZ", file_size = 4096, file_at_limit = false }, small) })
		assert.is_nil(R.death_note({ signame = "SIGKILL", cpu = 0.5 }, small))
	end)

	it("says what a sampled memory limit leaves out", function()
		assert.are.equal("pipe buffers and kernel objects not counted", R.uncounted())
		assert.are.equal("socket buffers, pipe buffers and kernel objects not counted",
			R.uncounted { net_host = true })
	end)
end)
