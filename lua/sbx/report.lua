-- SPDX-License-Identifier: MIT
--- The report of a run: events, the text report, the structured result,
-- the verification of every claim against the kernel's view from inside
-- the box, and the environment digest.
-- The text report has one line per event, each beginning `sandbox: `, with
-- a fixed vocabulary and no pid, time or host path: two runs of the same
-- case give the same bytes.
-- @module sbx.report
local core = require "sbx.core"
local limits = require "sbx.limits"
local written = require "sbx.written"
local json = require "sbx.json"

local M = {}

-- Bytes that never reach a line as they are, and what is written instead.
local escapes = { ["\\"] = "\\\\", ["\n"] = "\\n", ["\r"] = "\\r", ["\t"] = "\\t" }
for b = 0, 255 do
	local c = string.char(b)
	if escapes[c] == nil and (b < 0x20 or b > 0x7e) then
		escapes[c] = ("\\x%02x"):format(b)
	end
end

--- Makes text from outside safe to put in a report line or a message.
-- A program's name, a path, an operator's argument, a message that holds
-- one: any of them may hold a newline (which would start a line of its
-- own, such as a forged `sandbox: exit 0`) or a terminal's escape
-- sequence.  Printable ASCII passes unchanged; a backslash is doubled;
-- newline, carriage return and tab are written `\n`, `\r`, `\t`; every
-- other byte (the other controls, DEL, and every byte above 0x7e) is
-- written `\xHH`.  The result is one line of printable ASCII, and the
-- original bytes can be read back from it.  Every line and message that
-- sbxlua's scripts write passes through here (see docs/standard-box.md).
-- @param s a string (anything else through `tostring`)
-- @treturn string
function M.escape(s)
	return (tostring(s):gsub("[\0-\31\\\127-\255]", escapes))
end

local UNESCAPES = { ["\\"] = "\\", n = "\n", r = "\r", t = "\t" }

--- The bytes M.escape was given, read back from its result.
-- @tparam string s text as M.escape writes it
-- @treturn string
function M.unescape(s)
	if type(s) ~= "string" then
		error(("bad argument #1 to 'unescape' (string expected, got %s)"):format(type(s)), 2)
	end
	return (s:gsub("\\(.)(%x?%x?)", function(c, hex)
		if c == "x" then return #hex == 2 and string.char(tonumber(hex, 16)) or nil end
		return UNESCAPES[c] and UNESCAPES[c] .. hex or nil
	end))
end

-- The program's own output a result holds (captured, or the first bytes
-- of a stream passed on: the spec's keep_output), each stream's first
-- limits.OUTPUT_SHOWN bytes escaped, with how many it wrote; nil: none.
local function output_of(r)
	local out
	for _, s in ipairs { "stdout", "stderr" } do
		if type(r[s]) == "string" then
			local shown = r[s]:sub(1, limits.OUTPUT_SHOWN)
			out = out or json.object()
			out[s] = { text = M.escape(shown), shown = #shown, bytes = r[s .. "_bytes"] or #r[s] }
		end
	end
	return out
end

--- What sbxlua writes to a terminal before anything of its own (the report,
-- the behaviour, the verdict), whatever the program left there: a program
-- shares the terminal and can leave it in a state that hides or moves what
-- comes next (concealed or same-colour text, line-drawing character sets, a
-- one-line scroll region, the alternate screen, a hidden cursor, insert
-- mode, no autowrap, a string or sequence left open that swallows the next
-- bytes).  In order: CAN ends a control sequence left open and ST (ESC \) a
-- string (OSC, DCS, APC, PM, SOS; the terminal filter, ttyfilter.c, never
-- lets one through, but --tty-raw does); the normal screen (mode 47: no
-- cursor restore, unlike 1049's, which would move to a position saved long
-- ago); the scroll region the whole screen, inside a cursor save and restore
-- (DECSTBM moves the cursor home, and the report goes where the program's
-- output ended); then every attribute off and the primary font (SGR 10,
-- which on the Linux console also undoes SGR 11 and 12: control characters
-- shown, bytes with their high bit set, the report's letters drawn as other
-- glyphs), G0 and G1 ASCII with G0 shifted in (G2 and G3 are not designated:
-- the Linux console has neither, and prints the final byte; the filter drops
-- the shifts to them), insert mode off, autowrap on, the cursor shown, left
-- and right margins off, synchronized output off (mode 2026: a terminal that
-- has it draws nothing meanwhile), the line single-width, and the screen
-- below the cursor erased (what a program drew there, a fake report below
-- the real one, goes).  Origin mode is left as it is: switching it moves the
-- cursor home, and with the whole screen as the region it changes nothing.
-- No string, no query, no mode a terminal answers: it is the same bytes
-- whatever the program did.
M.TTY_RESET = table.concat {
	"\24\27\\", -- CAN, ST
	"\27[?47l", -- the normal screen
	"\0277\27[r\0278", -- DECSC, DECSTBM (the whole screen), DECRC
	"\27[0m\27[10m", -- SGR: every attribute off; the primary font (the Linux console: its mapping back)
	"\15\27(B\27)B", -- SI; G0, G1 ASCII
	"\27[4l\27[?7h\27[?25h\27[?69l", -- IRM off, DECAWM on, DECTCEM on, DECLRMM off
	"\27[?2026l", -- synchronized output off (a terminal that has it draws nothing while it is on)
	"\27#5\27[J", -- DECSWL, ED below
}

-- ---- the words of a limit ----

--- A name queried of the sink's resolver, escaped; a space too (no name
-- has one), so that a name cannot pass for the type and answer that follow
-- it on its line; the root is ".".
function M.dns_name(n)
	if n == "" then return "." end -- the root
	return (M.escape(n):gsub(" ", "\\x20"))
end

--- A count with a comma between thousands: `2,744`.
-- @tparam integer n (or a float of an integer's value, as a JSON decoder
--  gives)
-- @treturn string
function M.thousands(n)
	n = math.tointeger(n)
	if not n then error("bad argument #1 to 'thousands' (integer expected)", 2) end
	local s = tostring(n < 0 and -n or n):reverse():gsub("(%d%d%d)", "%1,"):reverse():gsub("^,", "")
	return (n < 0 and "-" or "") .. s
end

--- The report line of one of the sink's events (without `sandbox: `),
-- escaped: `dns: NAME TYPE -> ANSWER`, with ` (N times)` for a repeated
-- query; `traffic: PROTO ADDR:PORT N bytes: FIRST BYTES`, `N bytes, first
-- M:` when the record holds the first M of them.
function M.sink_line(e)
	if e.kind == "dns" then
		local times = (e.count or 1) > 1 and (" (%s times)"):format(M.thousands(e.count)) or ""
		return ("dns: %s %s -> %s%s"):format(M.dns_name(e.name), e.type, M.escape(e.answer), times)
	end
	local size = e.cut and ("%d bytes, first %d"):format(e.bytes, #e.data) or ("%d bytes"):format(e.bytes)
	return M.escape(("traffic: %s %s:%d %s: %s"):format(e.protocol, e.address, e.port, size, e.data))
end

--- The report's lines of the sink (`--verbose`): each `sandbox: ` and a
-- newline.  What a budget left out is said by the notes of `M.events`,
-- verbose or not.
-- @tparam table r the result
-- @treturn string
function M.sink_text(r)
	local out = {}
	for _, e in ipairs(r.sink or {}) do out[#out + 1] = "sandbox: " .. M.sink_line(e) .. "\n" end
	return table.concat(out)
end

--- The report's lines of the scripts the interpreters ran: with
-- `verbose`, one per script (`script: pid 4 sh stdin 37 bytes
-- sha256:...`, `, cut` when its text holds its first bytes only); and,
-- verbose or not, how many scripts the run's budget left out.  Each
-- `sandbox: ` and a newline, escaped (a path is the box's).
-- @tparam table r the result
-- @tparam[opt] boolean verbose
-- @treturn string
function M.scripts_text(r, verbose)
	if type(r) ~= "table" then
		error(("bad argument #1 to 'scripts_text' (table expected, got %s)"):format(type(r)), 2)
	end
	local out = {}
	for _, x in ipairs(verbose and type(r.scripts) == "table" and r.scripts or {}) do
		out[#out + 1] = "sandbox: " .. M.escape(("script: pid %s %s %s %d bytes sha256:%s%s"):format(
			tostring(math.tointeger(x.pid) or x.pid), tostring(x.language), tostring(x.source),
			math.tointeger(x.size) or 0, tostring(x.sha256 or "-"), x.cut and ", cut" or "")) .. "\n"
	end
	local over = math.tointeger(r.scripts_over)
	if over and over > 0 then
		out[#out + 1] = ("sandbox: note: %s scripts beyond the budget were run but not kept\n"):format(
			M.thousands(over))
	end
	return table.concat(out)
end

-- what each of the sink's budgets left out, and what the sink did with it
local sink_drops = {
	{ "dns", "DNS queries", "answered" },
	{ "tcp", "TCP connections", "accepted" },
	{ "udp", "datagrams", "received" },
	{ "http", "HTTP requests", "answered" },
}

-- A note per budget of the sink that left records out (core/super/sink.c):
-- `note: sink: 2,744 DNS queries beyond the budget were answered but not
-- recorded`; the count is the result's `sink_dropped_<kind>`.
local function sink_notes(r, events)
	for _, d in ipairs(sink_drops) do
		local n = r["sink_dropped_" .. d[1]]
		if n and n > 0 then
			events[#events + 1] = { kind = "note", cause = "sink", what = d[1], count = n,
				text = ("note: sink: %s %s beyond the budget were %s but not recorded"):format(
					M.thousands(n), d[2], d[3]) }
		end
	end
end

--- The note of a sample run by its content (`sbx.stdbox.by_content`):
-- the interpreter put before it.
-- @tparam table info the build's info, with `run_as` and `program`
-- @treturn table an event
function M.run_as_note(info)
	return { kind = "note", cause = "run_as",
		text = ("note: not executable: run by its content: %s %s"):format(
			table.concat(info.run_as, " "), info.program) }
end

--- A size in the largest binary unit that states it exactly:
-- `512 MiB`, `1536 MiB`, `1 GiB`, `1000 B`.
-- @tparam integer n bytes
-- @treturn string
function M.format_size(n)
	local units = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" }
	local i = 1
	n = math.floor(n)
	while n ~= 0 and n % 1024 == 0 and i < #units do
		n = n // 1024
		i = i + 1
	end
	return ("%d %s"):format(n, units[i])
end

--- A duration in seconds: `60 s`, `1.5 s`.
-- @tparam number s seconds
-- @treturn string
function M.format_duration(s)
	if math.type(s) == "integer" or s == math.floor(s) then
		return ("%d s"):format(math.floor(s))
	end
	return ("%g s"):format(s)
end

local limit_words = {
	memory = function(l) return "memory limit (" .. M.format_size(l.memory) .. ")" end,
	cpu = function(l) return "cpu limit (" .. M.format_duration(l.cpu) .. ")" end,
	tasks = function(l) return ("process limit (%d)"):format(l.tasks) end,
	output = function(l) return "output limit (" .. M.format_size(l.output) .. ")" end,
	wall = function(l) return "wall clock (" .. M.format_duration(l.wall) .. ")" end,
	file_size = function(l)
		return "file size limit (" .. M.format_size(l.file_size) .. ")"
	end,
}

local function limit_text(cause, lim)
	local f = limit_words[cause]
	if not f then
		error(("bad cause '%s'"):format(tostring(cause)), 3)
	end
	return f(lim or limits.defaults)
end

--- The report text for a cause, without the `sandbox: ` prefix:
-- `killed: memory limit (512 MiB)`.
-- @tparam string cause one of `sbx.limits.CAUSE`
-- @tparam[opt] table lim the limits in force (default `sbx.limits.defaults`)
-- @treturn string
function M.killed_line(cause, lim)
	return "killed: " .. limit_text(cause, lim)
end

--- The report text of a note on another process of the box that a limit
-- killed: `note: a process was killed by SIGXFSZ at the file size limit
-- (1 MiB)`.
-- @tparam string cause one of `sbx.limits.CAUSE`
-- @tparam string sig the signal's name
-- @tparam[opt] table lim the limits in force (default `sbx.limits.defaults`)
-- @treturn string
function M.note_line(cause, sig, lim)
	if type(sig) ~= "string" then
		error("bad signal name (a " .. type(sig) .. "): expected a string", 2)
	end
	return ("note: a process was killed by %s at the %s"):format(sig, limit_text(cause, lim))
end

-- what the record shows when a limit's own signal was not the limit
-- (`sbx.limits.not_limit`)
local not_limit_words = {
	cpu = function(l) return "before the " .. limit_words.cpu(l) end,
	file_size = function(l) return "with no file at the " .. limit_words.file_size(l) end,
}

--- What the kernel's record shows of a SIGXCPU or SIGXFSZ that was not
-- the limit (the signal's report line ends with it): `before the cpu
-- limit (30 s)`, `with no file at the file size limit (1 MiB)`; nil when
-- the record does not tell (`sbx.limits.not_limit`).
-- @tparam table d the death (see `sbx.limits.death_cause`)
-- @tparam[opt] table lim the limits in force (default `sbx.limits.defaults`)
-- @treturn string|nil
function M.not_limit_text(d, lim)
	lim = lim or limits.defaults
	local which = limits.not_limit(d, lim)
	return which and not_limit_words[which](lim) or nil
end

--- The note on a process of the box other than the command that died of
-- a limit's signal (`sbx.limits.noted`), and the limit it names, if any:
-- `note: a process was killed by SIGXCPU at the cpu limit (1 s)`, `note: a
-- process was killed by SIGXFSZ with no file at the file size limit (1
-- MiB)`, or the signal alone (`note: a process was killed by SIGXCPU`).
-- @tparam table d the death (see `sbx.limits.death_cause`)
-- @tparam[opt] table lim the limits in force (default `sbx.limits.defaults`)
-- @treturn string|nil the note's text, without the `sandbox: ` prefix
-- @treturn string|nil the cause it names (one of `sbx.limits.CAUSE`)
function M.death_note(d, lim)
	lim = lim or limits.defaults
	local noted, cause = limits.noted(d, lim)
	if not noted then return nil end
	local sig = limits.signame(d)
	if cause then return M.note_line(cause, sig, lim), cause end
	local why = M.not_limit_text(d, lim)
	return "note: a process was killed by " .. sig .. (why and " " .. why or ""), nil
end

--- What a sampled memory limit does not count, as the report says it
-- (docs/limits.md, "What the sampler counts, and what it cannot").
-- @tparam[opt] table opts `net_host` (the box shares the host's network
--  namespace: its socket buffers cannot be told from the host's)
-- @treturn string
function M.uncounted(opts)
	if opts ~= nil and type(opts) ~= "table" then
		error("bad argument #1 to 'uncounted' (table expected, got " .. type(opts) .. ")", 2)
	end
	if opts and opts.net_host then return "socket buffers, pipe buffers and kernel objects not counted" end
	return "pipe buffers and kernel objects not counted"
end

-- what the box's claims say a sampled limit leaves out, by limit
local function uncounted_of(info)
	return { memory = M.uncounted { net_host = info.network == "host" } }
end

--- How the report says an enforcement, where the one word is not all of
-- it: name -> enforcement -> text.
M.enforcement_text = {
	cpu = { sampled = "sampled, box-wide; rlimit per process" },
}

--- The limits as report lines (`limit: memory 512 MiB (cgroup)`,
-- `limit: cpu 30 s (sampled, box-wide; rlimit per process)` ...), in
-- `sbx.limits.names` order.
-- @tparam table lim resolved limits
-- @tparam[opt] table how the table of `sbx.limits.enforcement`
-- @tparam[opt] table notes name -> what the enforcement leaves out, said
--  after it where that is `"sampled"` (`limit: memory 512 MiB (sampled;
--  pipe buffers and kernel objects not counted)`)
-- @treturn table list of strings
function M.limit_lines(lim, how, notes)
	local out = {}
	for _, name in ipairs(limits.names) do
		local v, kind = lim[name], limits.kinds[name]
		local text
		if kind == "size" then
			text = M.format_size(v)
		elseif kind == "duration" then
			text = M.format_duration(v)
		else
			text = tostring(v)
		end
		local h = how and how[name]
		h = h and (M.enforcement_text[name] and M.enforcement_text[name][h] or h)
		if how and how[name] == "sampled" and notes and notes[name] then h = h .. "; " .. notes[name] end
		out[#out + 1] = ("limit: %s %s%s"):format((name:gsub("_", " ")), text,
			h and " (" .. h .. ")" or "")
	end
	return out
end

-- ---- events ----

--- Exit codes of run.lua.
M.EXIT_LIMIT = 124 -- a limit stopped the program
M.EXIT_REFUSED = 125 -- a refusal ended it
M.EXIT_CANNOT = 126 -- the box could not be set up, or found but cannot run
M.EXIT_NOT_FOUND = 127 -- the program to run is not found (as env, timeout, shells)

--- The words of a program that is not there (`sbx.stdbox.find_program`):
-- the error that exits `M.EXIT_NOT_FOUND`.
M.NOT_FOUND = "not found"

-- The notes on processes of the box other than the command that died of
-- a limit's signal (`M.death_note`: a limit only on the kernel's
-- record), in the order of their lines, so that two runs give the same
-- report.
local function death_notes(r, lim)
	local notes = {}
	for _, d in ipairs(r.deaths or {}) do
		local text, cause
		if not d.command and d.signame then text, cause = M.death_note(d, lim) end
		if text then
			notes[#notes + 1] = { kind = "note", cause = cause or "signal",
				limit = cause and lim[cause] or nil, signal = d.signal, name = d.signame,
				pid = d.pid, command = d.name, text = text, seen = d.seen }
		end
	end
	table.sort(notes, function(a, b)
		if a.text ~= b.text then return a.text < b.text end
		return (a.pid or 0) < (b.pid or 0)
	end)
	return notes
end

-- The note of the mappings the sampled memory limit refused: a private
-- writable mmap longer than its RLIMIT_DATA backstop, which the kernel
-- refuses (ENOMEM), is sent to the supervisor by the explain channel's
-- gate (core/api/spec.c) and let through to that refusal.  Nil when none was.
local function memory_note(r, lim)
	if not lim.memory or limits.enforcement(r).memory ~= "sampled" then return nil end
	local backstop, first, n = limits.memory_backstop(lim), nil, 0
	for _, e in ipairs(r.events or {}) do
		if e.kind == "mmap" and e.answer == "allow" and (e.prot or 0) & 2 ~= 0 and (e.size or 0) > backstop then
			first, n = first or e, n + 1
		end
	end
	if not first then return nil end
	return { kind = "note", cause = "memory", limit = lim.memory, size = first.size, count = n,
		text = ("note: %s refused an allocation of %d MiB%s"):format(limit_text("memory", lim),
			first.size // limits.MiB, n > 1 and (" (and %d more)"):format(n - 1) or "") }
end

-- A note when the box's live tasks reached the task limit, on the proc
-- connector's exact count (`tasks_seen`: every fork and exit of the box):
-- a fork past it failed or would have (RLIMIT_NPROC holds a runaway, and
-- the sampler may not have looked in time).  "reached", not "refused":
-- the connector sees no fork that failed.  Nothing when the limit ended
-- the run (its own line says so).
local function tasks_note(r, lim)
	if not lim.tasks or not r.tasks_seen or r.tasks_seen < lim.tasks then return nil end
	if r.outcome == "tasks" then return nil end
	return { kind = "note", cause = "tasks", limit = lim.tasks, tasks = r.tasks_seen,
		text = ("note: process limit (%d tasks) reached"):format(lim.tasks) }
end

-- the main event of a run
-- A note for each written place the box left on a full tmpfs (no block
-- or inode free when the supervisor walked it, after the box ended:
-- `places_full`, capture.c): a write past its size failed there or would
-- have.  "was full", not "refused": the channel sees no failed write.
local function full_notes(r, events)
	for _, f in ipairs(r.places_full or {}) do
		events[#events + 1] = { kind = "note", cause = "tmpfs", path = f.path, size = f.size,
			text = ("note: %s (%s) was full when the box ended"):format(M.escape(f.path), M.format_size(f.size)) }
	end
end

--- Seconds of skipped sleep as the report and the behaviour summary say
-- them: whole from 10 s, else to a tenth (an absolute sleep's length is
-- what remained of it when the supervisor read it: a few ms short).
-- @tparam number s
-- @treturn number
function M.sleep_seconds(s)
	if s >= 10 then return math.floor(s + 0.5) end
	return math.floor(s * 10 + 0.5) / 10
end

-- The note of the sleeps the analysis box skipped (core/super/sleep.c):
-- `note: sleeps skipped: 600 s in 3 calls`.
local function sleeps_note(r)
	local s = r.sleeps_skipped
	if not s then return nil end
	return { kind = "note", cause = "sleeps", seconds = s.seconds, calls = s.calls, longest = s.longest,
		text = ("note: sleeps skipped: %s in %d call%s"):format(M.format_duration(M.sleep_seconds(s.seconds)),
			s.calls, s.calls == 1 and "" or "s") }
end

-- The note of the processes that ran on after the command exited (the
-- analysis box follows its last process, `follow`; the result's
-- `outlived`): `note: 3 processes ran on after the command exited (12.0
-- s)`, and what ended them when a limit did.  Its time is the last one's
-- end, on the events' clock (the timeline puts it after their events).
local function outlived_note(r, lim)
	local o = r.outlived
	if type(o) ~= "table" then return nil end
	local who = o.count and ("%d process%s"):format(o.count, o.count == 1 and "" or "es") or "processes"
	local why = o.killed and limit_words[o.killed] and (", until the %s ended them"):format(limit_text(o.killed, lim))
		or o.killed and (", until the box was stopped (%s)"):format(o.killed) or ""
	return { kind = "note", cause = "outlived", count = o.count, seconds = o.seconds, killed = o.killed,
		time_ms = o.after_ms and math.floor(o.after_ms + (o.seconds or 0) * 1000),
		text = ("note: %s ran on after the command exited (%.1f s)%s"):format(who, o.seconds or 0, why) }
end

local function end_event(r, lim)
	if r.outcome == "exit" then return { kind = "exit", code = r.code } end
	-- a notified call answered "stop": the box was killed in that call
	if r.outcome == "refused" and r.refused then
		return { kind = "refused", call = r.refused }
	end
	if r.outcome == "cannot" then
		local c = r.cannot or {}
		return { kind = "cannot", stage = c.stage, path = c.path, errno = c.errname }
	end
	-- the operator stopped sbxlua (SIGINT, SIGTERM, SIGHUP): the box was
	-- killed, reaped and its cgroup removed before this report
	if r.outcome == "interrupted" then
		return { kind = "interrupted", signal = r.signal, name = r.signame }
	end
	local cause = limits.classify(r, lim)
	if cause then return { kind = "killed", cause = cause, limit = lim[cause] } end
	if r.outcome == "lost" then return { kind = "lost" } end
	-- the box's init killed (from outside: nothing inside can signal it)
	-- after the program started; the program died with its namespace
	if r.outcome == "init" then
		return { kind = "killed", cause = "init", signal = r.signal, name = r.signame }
	end
	-- a signal, a limit's own among them, that the kernel's record does
	-- not show to be a limit: what it does show follows the signal
	local d = limits.command_death(r)
	return { kind = "killed", cause = "signal", signal = r.signal, name = r.signame,
		evidence = d and M.not_limit_text({ signal = r.signal, signame = r.signame,
			cpu = d.cpu, file_size = d.file_size, file_at_limit = d.file_at_limit,
			files_partial = d.files_partial }, lim) or nil }
end

--- Turns a core result into the list of events of the run.  An exit is
-- the program's own and never reclassified; a kill is named by a limit
-- only on evidence (`sbx.limits.classify`); a signal is otherwise reported
-- as such (a SIGSYS too: nothing outside the process tells the seccomp
-- filter's kill from a `kill -SYS`).  Notes follow on other processes of
-- the box that a limit killed.
-- @tparam table r the result of box:run()
-- @tparam table info the claims of `sbx.stdbox.build`
function M.events(r, info)
	local lim = info.limits or {}
	local events = {}
	-- a backend's own first line (the isolation it does not give), then
	-- what its runtime recorded differently from what was asked
	if info.first_line then events[1] = { kind = "isolation", text = info.first_line } end
	for _, m in ipairs(info.mismatches or {}) do events[#events + 1] = { kind = "mismatch", text = m } end
	-- the explain channel's events, in order (sbx.core, notify.c); the
	-- mmap cap is the box's, named in the refusal's line
	local cap = info.notify and info.notify.mmap_cap
	for _, e in ipairs(r.events or {}) do
		if e.kind == "mmap" and cap then e.cap = cap end
		events[#events + 1] = e
	end
	-- events past their budgets (notify.h): summarised, or counted by kind
	if r.events_dropped and r.events_dropped > 0 then
		events[#events + 1] = { kind = "dropped", count = r.events_dropped,
			summaries = r.events_summarised, lost = r.events_lost }
	end
	if r.rule_error then events[#events + 1] = { kind = "rule", error = r.rule_error } end
	if r.refused and r.refused.kind == "mmap" and cap then r.refused.cap = cap end
	events[#events + 1] = end_event(r, lim)
	events[#events + 1] = memory_note(r, lim)
	events[#events + 1] = tasks_note(r, lim)
	full_notes(r, events)
	events[#events + 1] = sleeps_note(r)
	sink_notes(r, events)
	events[#events + 1] = outlived_note(r, lim)
	if r.outcome ~= "cannot" then
		for _, n in ipairs(death_notes(r, lim)) do events[#events + 1] = n end
	end
	return events
end

-- Plain words for the set-up failures a host (not the program) causes.
local hints = {
	["create namespaces"] = {
		ENOSPC = "user namespaces are disabled or exhausted on this host",
		EPERM = "this host does not let this user create namespaces",
		EINVAL = "this kernel lacks a namespace the box needs",
	},
	mount = {
		EPERM = "this host refuses mounts in a user namespace (an LSM such as AppArmor, "
			.. "or a /proc with hidden entries)",
		EACCES = "this host refuses mounts in a user namespace (an LSM such as AppArmor)",
		ESTALE = "the source was replaced after sbxlua opened it",
	},
}

local setid_lines = {
	cleared = function(e) return "cleared set-id bits: " .. e.path end,
	failed = function(e)
		return ("cannot clear set-id bits: %s: %s"):format(e.path, e.errno or "EUNKNOWN")
	end,
	unchecked = function(e)
		if e.limit then
			return ("cannot check for set-id files: %s: stopped after %d entries")
				:format(e.path, e.limit)
		end
		return ("cannot check for set-id files: %s: %s"):format(e.path, e.errno or "EUNKNOWN")
	end,
}

--- The words naming a notified call (the explain channel's event `e`):
-- `open /etc/shadow`, `connect 10.0.0.1:4444`, `delete /work/a`,
-- `rename /work/a to /work/b`, `attribute /work/a (fchmodat)`,
-- `syscall 41 (socket)`,
-- `process limit (16)` (a creation past `notify.tasks`), `exec limit (8)`.
function M.call_words(e)
	local k = e.kind
	if k == "clone" and e.limit then return ("process limit (%d)"):format(e.limit) end
	if k == "exec" and e.limit then return ("exec limit (%d)"):format(e.limit) end
	if k == "rename" then return ("rename %s to %s"):format(e.path or "?", e.to or "?") end
	if k == "attribute" then return ("attribute %s (%s)"):format(e.path or "?", e.syscall or "?") end
	if k == "open" or k == "exec" or k == "delete" then return k .. " " .. (e.path or "?") end
	if (k == "connect" or k == "bind" or k == "send") and e.addr then return k .. " " .. e.addr end
	if k == "clone" and e.namespaces then
		return (e.syscall == "unshare" and "unshare" or "clone") .. " with namespace flags"
	end
	if k == "mmap" and e.cap then
		return ("mmap %d bytes over the cap (%d)"):format(e.size, e.cap)
	end
	return ("syscall %d (%s)"):format(e.nr, e.syscall)
end

-- the kinds of notified calls, in the order of the verbose summary
M.CALL_KINDS = { "open", "exec", "connect", "bind", "send", "clone", "mmap", "ptrace",
	"delete", "rename", "attribute", "memfd", "signal", "protect", "syscall" }
local call_kind = {}
for _, k in ipairs(M.CALL_KINDS) do call_kind[k] = true end

--- Whether an event is one of the explain channel's notified calls.
function M.is_call(e) return call_kind[e.kind] == true end

--- One line per kind of notified call with its count (`--verbose`):
-- `notified: open 12 (denied 2)`.
function M.call_summary(events)
	local n, denied = {}, {}
	for _, e in ipairs(events) do
		if call_kind[e.kind] then
			n[e.kind] = (n[e.kind] or 0) + (e.count or 1)
			if e.answer ~= "allow" then denied[e.kind] = (denied[e.kind] or 0) + (e.count or 1) end
		end
	end
	local lines = {}
	for _, k in ipairs(M.CALL_KINDS) do
		if n[k] then
			lines[#lines + 1] = ("notified: %s %d%s"):format(k, n[k],
				denied[k] and (" (refused %d)"):format(denied[k]) or "")
		end
	end
	return lines
end

--- The line of the events past their budgets: `evidence past its budget:
-- 6000 events, summarised: open 6000 in /tmp (first /tmp/n0, last
-- /tmp/n5999); not kept: exec 3` (the three largest summaries).
function M.dropped_line(e)
	local s, parts = {}, {}
	-- a flood's names are the program's, as long as it likes
	local function short(x) return #x > 96 and x:sub(1, 45) .. "[...]" .. x:sub(-46) or x end
	for _, a in ipairs(e.summaries or {}) do s[#s + 1] = a end
	table.sort(s, function(a, b) return a.count > b.count end)
	for i = 1, math.min(#s, 3) do
		local a = s[i]
		parts[#parts + 1] = ("%s %d%s%s (first %s%s)"):format(a.kind, a.count,
			a.answer ~= "allow" and " " .. a.answer or "", a.dir and " in " .. short(a.dir) or "",
			short(M.call_words(a.first)), a.last and ", last " .. short(M.call_words(a.last)) or "")
	end
	if #s > 3 then parts[#parts + 1] = ("%d more"):format(#s - 3) end
	local lost = {}
	for k, n in pairs(e.lost or {}) do lost[#lost + 1] = ("%s %d"):format(k, n) end
	table.sort(lost)
	return ("evidence past its budget: %d events%s%s"):format(e.count,
		#parts > 0 and ", summarised: " .. table.concat(parts, "; ") or "",
		#lost > 0 and "; not kept: " .. table.concat(lost, ", ") or "")
end

local function event_line(e)
	if call_kind[e.kind] then
		-- refusals only: an allowed call is in the JSON, not the text;
		-- a "stop" is the run's last line
		if e.answer ~= "deny" then return nil end
		return ("denied: %s (%s)%s"):format(M.call_words(e), e.errno or "EPERM",
			(e.count or 1) > 1 and (" x%d"):format(e.count) or "")
	end
	if e.kind == "refused" then return "refused: " .. M.call_words(e.call) end
	if e.kind == "dropped" then return M.dropped_line(e) end
	if e.kind == "rule" then return "rule failed: " .. e.error end
	if e.kind == "setid" then return setid_lines[e.action](e) end
	if e.kind == "exit" then return ("exit %d"):format(e.code) end
	if e.kind == "isolation" then return e.text end
	if e.kind == "mismatch" then return "not as asked: " .. e.text end
	if e.kind == "interrupted" then return ("interrupted (%s)"):format(e.name) end
	if e.kind == "note" then
		if e.text then return e.text end
		return M.note_line(e.cause, e.name, { [e.cause] = e.limit })
	end
	if e.kind == "killed" then
		if e.cause == "refused" then
			return ("killed: refused system call: signal %d (%s)"):format(e.signal, e.name)
		elseif e.cause == "signal" then
			return ("killed: signal %d (%s)%s"):format(e.signal, e.name,
				e.evidence and " " .. e.evidence or "")
		elseif e.cause == "init" then
			return ("killed: the box's init died: signal %d (%s)"):format(e.signal, e.name)
		end
		return M.killed_line(e.cause, { [e.cause] = e.limit })
	end
	if e.kind == "cannot" then
		local what = e.stage or "set up"
		if e.path then what = what .. " " .. e.path end
		local hint = hints[e.stage] and hints[e.stage][e.errno]
		return ("cannot %s: %s%s"):format(what, e.errno or "EUNKNOWN",
			hint and " (" .. hint .. ")" or "")
	end
	return "lost: the box ended without a status"
end

--- The report line of one event (without the `sandbox: ` prefix), a path
-- in it escaped (`M.escape`); nil for a notified call that was allowed
-- (and for the one a stop answered: the run's own line names it).
function M.line(e)
	local l = event_line(e)
	return l and M.escape(l)
end

--- The exit code of run.lua for the events of a run.
function M.exit_code(events)
	for _, e in ipairs(events) do
		if e.kind == "cannot" or e.kind == "lost" or e.kind == "mismatch" then return M.EXIT_CANNOT end
		if e.kind == "refused" then return M.EXIT_REFUSED end
		if e.kind == "killed" then
			if e.cause == "signal" or e.cause == "init" then return 128 + e.signal end
			if e.cause == "refused" then return M.EXIT_REFUSED end
			return M.EXIT_LIMIT
		end
		if e.kind == "exit" then return e.code end
		if e.kind == "interrupted" then return 128 + e.signal end
	end
	return M.EXIT_CANNOT
end

local proc_name = { mount = "mnt" }

--- Verifies the claims against the probe: the command's mounts and
-- namespaces read inside just before the filter, its status read from
-- outside after its execve (docs/standard-box.md).  Every entry is true
-- only when the kernel's view confirms it; false when it contradicts it or
-- could not be read.
-- @tparam table r the core result (with r.probe)
-- @tparam table info the claims
-- @tparam table host the host's namespace ids (sbx.core.ns_ids())
function M.verify(r, info, host)
	local v = { namespaces = {} }
	local p = r.probe
	local status, mountinfo, ns = p and p.status or "", p and p.mountinfo or "", {}
	for name, id in (p and p.ns or ""):gmatch("(%w+):(%S+)") do ns[name] = name .. ":" .. id end
	for _, n in ipairs(core.namespaces()) do
		local id = ns[proc_name[n] or n]
		v.namespaces[n] = id ~= nil and host[n] ~= nil and id ~= host[n]
	end
	v.no_new_privs = status:match("\nNoNewPrivs:%s*(%d+)") == "1"
	local caps = true
	for _, set in ipairs { "CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb" } do
		caps = caps and status:match("\n" .. set .. ":%s*(%x+)") == "0000000000000000"
	end
	v.capabilities_dropped = caps
	v.seccomp = status:match("\nSeccomp:%s*(%d+)") == "2"
	local root
	for l in mountinfo:gmatch("[^\n]+") do
		local from, mp, opts, fstype = l:match("^%d+ %d+ %S+ (%S+) (%S+) (%S+).- %- (%S+)")
		if mp == "/" then root = { from = from, opts = opts, fstype = fstype } end
	end
	-- a tmpfs of the box's own, or a directory bound as the root (an OCI
	-- bundle's, --rootfs): never the whole of a host file system
	v.private_root = root ~= nil and (root.fstype == "tmpfs" or (info.root_dir and root.from ~= "/"))
	v.read_only_root = root ~= nil and (root.opts .. ","):match("^ro,") ~= nil
	local uid = status:match("\nUid:%s*(%d+)")
	v.uid = uid ~= nil and tonumber(uid) == (info.record_uid or 1000)
	-- Landlock keeps no trace in /proc: it is claimed when restrict_self
	-- succeeded (the run fails otherwise) but cannot be read back here.
	v.landlock = false
	v.rlimits = false -- the probe does not read /proc/self/limits
	-- a record read before the filter is set (an OCI runtime's)
	if info.seccomp_unread then v.seccomp = nil end
	return v
end

--- The isolation report: one boolean per protection.
function M.isolation(info)
	local ns = {}
	for _, n in ipairs(core.namespaces()) do ns[n] = false end
	for _, n in ipairs(info.namespaces) do ns[n] = true end
	local iso = {
		namespaces = ns,
		private_root = true,
		read_only_root = true,
		no_new_privs = true,
		capabilities_dropped = true,
		seccomp = info.seccomp,
		seccomp_profile = info.profile,
		landlock = info.landlock,
		landlock_abi = info.landlock_abi,
		rlimits = true,
		network = info.network,
		host_root = info.host_root,
	}
	-- what a backend other than the namespace box does not give
	for k, v in pairs(info.claims or {}) do iso[k] = v end
	return iso
end

local function sorted_keys(t)
	local k = {}
	for key in pairs(t) do k[#k + 1] = key end
	table.sort(k)
	return k
end

--- The environment digest: sha256 over a versioned domain string, the
-- sandbox kind, OS, architecture, every protection flag, the limits, the
-- network mode, the environment and the read-only mounts.
function M.digest(info)
	local iso = M.isolation(info)
	local parts = { "sbxlua-environment-v1", "kind=" .. (info.kind or "namespaces"), "os=linux",
		"arch=x86_64" }
	-- a backend's own facts (the OCI runtime, another root's identity)
	for _, x in ipairs(info.digest_extra or {}) do parts[#parts + 1] = x end
	for _, n in ipairs(sorted_keys(iso.namespaces)) do
		parts[#parts + 1] = ("ns.%s=%s"):format(n, tostring(iso.namespaces[n]))
	end
	for _, k in ipairs { "private_root", "read_only_root", "no_new_privs",
		"capabilities_dropped", "seccomp", "seccomp_profile", "landlock", "landlock_abi",
		"rlimits", "network", "host_root" } do
		parts[#parts + 1] = ("%s=%s"):format(k, tostring(iso[k]))
	end
	if info.seccomp_program then parts[#parts + 1] = "seccomp_program=" .. info.seccomp_program end
	for _, k in ipairs(sorted_keys(info.limits)) do
		parts[#parts + 1] = ("limit.%s=%s"):format(k, tostring(info.limits[k]))
	end
	local env = info.digest_env or info.env
	for _, k in ipairs(sorted_keys(env)) do
		parts[#parts + 1] = ("env.%s=%s"):format(k, env[k])
	end
	local ro = {}
	for _, p in ipairs(info.ro_roots) do ro[#ro + 1] = p end
	table.sort(ro)
	for _, p in ipairs(ro) do parts[#parts + 1] = "ro=" .. p end
	-- lengths make the encoding unambiguous
	local buf = {}
	for _, s in ipairs(parts) do buf[#buf + 1] = #s .. ":" .. s end
	return "sha256:" .. core.sha256(table.concat(buf, "\n"))
end

--- The state of each claim, in the words of the text report: `verified`
-- (the kernel's view inside confirmed it), `failed` (the view was read and
-- does not confirm it), `unverifiable` (made, but nothing reads it back:
-- Landlock keeps no trace in /proc, resource limits are not probed; or
-- the box ended before the probe), `none` (not claimed: a namespace not
-- asked for, no filter, no Landlock).
-- @tparam table r the core result
-- @tparam table info the claims
-- @tparam table verified from `M.verify`
-- @treturn table the same keys as `verified`, each a state
function M.verified_states(r, info, verified)
	local iso = M.isolation(info)
	local read = r.probe ~= nil and r.probe.status ~= nil
	local function state(claimed, ok, readable)
		if not claimed then return "none" end
		if readable == false or not read then return "unverifiable" end
		return ok and "verified" or "failed"
	end
	local out = { namespaces = {} }
	for n, claimed in pairs(iso.namespaces) do
		out.namespaces[n] = state(claimed, verified.namespaces[n])
	end
	for _, k in ipairs { "private_root", "read_only_root", "no_new_privs",
		"capabilities_dropped", "seccomp" } do
		out[k] = state(iso[k], verified[k], not (k == "seccomp" and info.seccomp_unread) and nil)
	end
	out.uid = state(true, verified.uid)
	out.landlock = state(iso.landlock, verified.landlock, false)
	out.rlimits = state(iso.rlimits, verified.rlimits, false)
	return out
end

--- The isolation report as `sandbox:` lines (for --verbose), each limit
-- with its enforcement as the core's result says it.
-- @tparam table r the core result
-- @tparam table info the claims
-- @tparam table verified from `M.verify`
function M.isolation_lines(r, info, verified)
	local iso = M.isolation(info)
	local function tag(ok) return ok and "verified" or "failed" end
	local out = {}
	local names = {}
	for _, n in ipairs(info.namespaces) do names[#names + 1] = n end
	local all = true
	for _, n in ipairs(info.namespaces) do all = all and verified.namespaces[n] end
	if #names == 0 then
		out[#out + 1] = "namespaces: none"
	else
		out[#out + 1] = ("namespaces: %s (%s)"):format(table.concat(names, " "), tag(all))
	end
	if iso.private_root then
		out[#out + 1] = ("root: %s (%s), read-only (%s)"):format(info.root_name or "private tmpfs",
			tag(verified.private_root), tag(verified.read_only_root))
	else
		out[#out + 1] = "root: the host's"
	end
	out[#out + 1] = ("no_new_privs: yes (%s)"):format(tag(verified.no_new_privs))
	if iso.capabilities_dropped then
		out[#out + 1] = ("capabilities: none (%s)"):format(tag(verified.capabilities_dropped))
	else
		out[#out + 1] = "capabilities: none held, bounding set kept"
	end
	if iso.seccomp then
		out[#out + 1] = ("seccomp: profile %s (%s)"):format(iso.seccomp_profile,
			info.seccomp_unread and "set after the runtime's record: unverifiable" or tag(verified.seccomp))
	else
		out[#out + 1] = "seccomp: none"
	end
	if iso.landlock then
		out[#out + 1] = ("landlock: ABI %d (set; unverifiable: the kernel offers no read-back)")
			:format(iso.landlock_abi)
	else
		out[#out + 1] = "landlock: none"
	end
	out[#out + 1] = ("network: %s"):format(iso.network)
	out[#out + 1] = ("host root: %s"):format(iso.host_root and "yes (the box runs as kernel uid 0)" or "no")
	for _, l in ipairs(M.limit_lines(info.limits, limits.enforcement(r), uncounted_of(info))) do
		out[#out + 1] = l
	end
	out[#out + 1] = ("digest: %s"):format(M.digest(info))
	for i, l in ipairs(out) do out[i] = M.escape(l) end
	return out
end

--- The text report of a run: one line per event, each `sandbox: ` and
-- escaped, after the isolation report's lines when `verbose`.
-- @tparam table r the core result
-- @tparam table info the claims
-- @tparam table events from `M.events` (and any the caller adds)
-- @tparam table verified from `M.verify`
-- @tparam[opt] boolean verbose
-- @treturn string
function M.text(r, info, events, verified, verbose)
	local lines = {}
	-- a backend's isolation line comes first, before the verbose lines
	local first = events[1] and events[1].kind == "isolation" and events[1] or nil
	if first then lines[1] = M.line(first) end
	if verbose then
		for _, l in ipairs(M.isolation_lines(r, info, verified)) do lines[#lines + 1] = l end
		for _, l in ipairs(M.written_lines(info.files or {}, r)) do lines[#lines + 1] = l end
		for _, l in ipairs(M.call_summary(events)) do lines[#lines + 1] = l end
	end
	for _, e in ipairs(events) do
		if e ~= first then lines[#lines + 1] = M.line(e) end
	end
	for i, l in ipairs(lines) do lines[i] = "sandbox: " .. l .. "\n" end
	return table.concat(lines)
end

--- The --verbose line of one written file (`sbx.written.files`):
-- `written: /work/a (file 0644, 12 B, sha256:...)`, `written: /work/x
-- (link -> /etc/shadow)`, `written: /work/big (file 0644, 1.0 GiB, not
-- read: bound)`; a decoy as placed is not one.
function M.written_line(f)
	if f.type == "link" then
		return ("written: %s (link -> %s)"):format(f.path, f.link or "?")
	end
	-- the record's integer, or the JSON's octal text (a decoded result)
	local mode = math.type(f.mode) == "integer" and ("%04o"):format(f.mode) or tostring(f.mode)
	if f.type ~= "file" then return ("written: %s (%s %s)"):format(f.path, f.type, mode) end
	local what = f.sha256 and "sha256:" .. f.sha256 or "not read: " .. (f.unread or "EUNKNOWN")
	return ("written: %s (file %s, %s, %s)"):format(f.path, mode, M.format_size(f.size), what)
end

--- The --verbose lines of the written files, then the bounds the record
-- hit: `written: stopped at a bound (entries, depth)` (entries, depth,
-- bytes read, bytes kept), and `written: some entries could not be read`
-- (a directory or file the caller may not read, a name too long).
function M.written_lines(files, r)
	local lines = {}
	for _, f in ipairs(files) do
		if not f.decoy then lines[#lines + 1] = M.line { kind = "isolation", text = M.written_line(f) } end
	end
	local b, hit = r.files_bounds, {}
	if b then
		for _, k in ipairs { "entries", "depth", "read", "keep", "types" } do
			if b[k] then hit[#hit + 1] = k end
		end
		if #hit > 0 then lines[#lines + 1] = "written: stopped at a bound (" .. table.concat(hit, ", ") .. ")" end
		if b.partial then lines[#lines + 1] = "written: some entries could not be read" end
	end
	return lines
end

--- The note of a decoy's marker found outside the decoy:
-- `note: decoy ~/.ssh/id_rsa's marker found in /work/out.txt`.
function M.decoy_note(hit)
	return { kind = "note", cause = "decoy",
		text = ("note: decoy %s's marker found in %s"):format(hit.decoy, hit.where) }
end

--- The deaths of a run that a limit caused or that the report notes
-- (for the JSON): `notable` lists each one (`pid` in the box when known,
-- `command` its name when known, `signal`, `signame`, `limit` the cause it
-- matches (none for a note that names no limit), `is_command` for the
-- box's command itself, `seen` `"init"` or `"connector"`);
-- `coverage` says which processes were seen: `"all"` (the proc connector
-- followed every process of the box), `"init"` (the command, the orphans
-- the box's init reaped, and every process left when the command ended;
-- not a process reaped by its own parent; `reason` says why no more) or
-- `"command"` (the command only: no pid namespace of the box's own);
-- `unseen` counts deaths past the records' cap.
-- @tparam table r the result of box:run()
-- @tparam table info the claims of `sbx.stdbox.build`
-- @treturn table
function M.deaths(r, info)
	local lim = info.limits or {}
	local notable = {}
	for _, d in ipairs(r.deaths or {}) do
		local noted, cause
		if d.command then
			cause = limits.death_cause(d, lim)
			if r.outcome == "signal" then cause = limits.classify(r, lim) end
		elseif d.signame then
			noted, cause = M.death_note(d, lim)
		end
		if (cause or noted) and d.signame then
			notable[#notable + 1] = { pid = d.pid, command = d.name, signal = d.signal,
				signame = d.signame, limit = cause, is_command = d.command,
				seen = d.seen or "init" }
		end
	end
	table.sort(notable, function(a, b)
		if a.signal ~= b.signal then return a.signal < b.signal end
		return (a.pid or 0) < (b.pid or 0)
	end)
	return { coverage = r.death_coverage or "command", reason = r.death_coverage_reason,
		unseen = r.deaths_unseen or 0, notable = notable }
end

-- the decoys placed, for the JSON: name, path in the box, marker
local function decoys_of(info)
	if not info.decoys then return nil end
	local out = {}
	for _, d in ipairs(info.decoys) do
		out[#out + 1] = { name = d.name, path = d.path, marker = d.marker, sha256 = d.sha256 }
	end
	return out
end

-- A copy of v fit for JSON, which is UTF-8: a string the box made that is
-- not UTF-8 (a file's name, an opened path, an argument) is given escaped
-- (`M.escape`), and the object holding it lists the field in `escaped`
-- (for a list of strings, the list's field); true when a list's string was.
local function utf8_safe(v)
	if type(v) == "string" then
		if utf8.len(v) then return v, false end
		return M.escape(v), true
	end
	if type(v) ~= "table" then return v, false end
	local out, bad, any = {}, {}, false
	for k, x in pairs(v) do
		local y, changed = utf8_safe(x)
		out[k] = y
		if changed then
			any = true
			if type(k) == "string" then bad[#bad + 1] = k end
		end
	end
	if #bad > 0 then
		table.sort(bad)
		out.escaped = bad
	end
	-- a map marked as one (`sbx.json.object`) stays marked
	return setmetatable(out, getmetatable(v)), any and #v > 0 and #bad == 0
end

-- the written files for the JSON: each mode in octal text ("0644"), the
-- one form every mode of the JSON has (files_dropped's too)
local function files_json(files)
	if not files then return nil end
	local out = {}
	for i, f in ipairs(files) do
		local c = {}
		for k, v in pairs(f) do c[k] = v end
		if math.type(f.mode) == "integer" then c.mode = ("%04o"):format(f.mode) end
		out[i] = c
	end
	return out
end

--- The structured result (for --json); `verified` holds states
-- (`M.verified_states`), not booleans.  Strings that are not UTF-8 are
-- escaped and named in their object's `escaped` list.
function M.result(r, info, events, verified)
	return (utf8_safe(M.raw_result(r, info, events, verified)))
end

--- The structured result before the escape of strings that are not UTF-8.
function M.raw_result(r, info, events, verified)
	local lim, how, uncounted = {}, limits.enforcement(r), uncounted_of(info)
	for k, v in pairs(info.limits) do
		lim[k] = { value = v, enforcement = how[k] or "none",
			uncounted = how[k] == "sampled" and uncounted[k] or nil }
	end
	return {
		version = 1,
		-- VirusTotal's: when the analysis ran (seconds since the epoch), and
		-- which sandbox
		analysis_date = os.time(),
		sandbox_name = "sbxlua " .. core.version,
		outcome = r.outcome,
		exit_code = M.exit_code(events),
		code = r.code,
		signal = r.signal,
		events = events,
		limits = json.object(lim),
		measured = json.object { memory_peak = r.memory_peak, tasks_peak = r.tasks_peak, cpu = r.cpu,
			samples = r.samples, cgroup = r.cgroup, proc_events = r.proc_events },
		deaths = M.deaths(r, info),
		isolation = M.isolation(info),
		verified = M.verified_states(r, info, verified),
		digest = M.digest(info),
		stdout_bytes = r.stdout_bytes,
		stderr_bytes = r.stderr_bytes,
		output = output_of(r),
		files = files_json(info.files),
		files_dropped = info.files and written.dropped(info.files) or nil,
		files_bounds = r.files_bounds,
		inspect_skipped = r.inspect_skipped,
		decoys = decoys_of(info),
		-- the processes of a following box alive when the command ended
		outlived = r.outlived,
		-- the scripts the interpreters ran, their text bounded
		-- (core/super/script.h); past the run's budgets, counted
		scripts = r.scripts,
		scripts_over = r.scripts_over,
	}
end

return M
