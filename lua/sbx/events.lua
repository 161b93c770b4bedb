-- SPDX-License-Identifier: MIT
--- The events of a run: the event model built from a result, the line of
-- each event, the exit code of run.lua.
-- @module sbx.events
local limits = require "sbx.limits"
local txt = require "sbx.text"
local words = require "sbx.words"
local argcheck = require("sbx._arg").check

local M = {}

--- The report line of one of the sink's events (without `sandbox: `),
-- escaped: `dns: NAME TYPE -> ANSWER`, with ` (N times)` for a repeated
-- query; `traffic: PROTO ADDR:PORT N bytes: FIRST BYTES`, `N bytes, first
-- M:` when the record holds the first M of them.
function M.sink_line(e)
	if e.kind == "dns" then
		local times = (e.count or 1) > 1 and (" (%s times)"):format(txt.thousands(e.count)) or ""
		return ("dns: %s %s -> %s%s"):format(txt.dns_name(e.name), e.type, txt.escape(e.answer), times)
	end
	local size = e.cut and ("%d bytes, first %d"):format(e.bytes, #e.data) or ("%d bytes"):format(e.bytes)
	return txt.escape(("traffic: %s %s:%d %s: %s"):format(e.protocol, e.address, e.port, size, e.data))
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
	argcheck(r, "table", 1, "scripts_text")
	local out = {}
	for _, x in ipairs(verbose and type(r.scripts) == "table" and r.scripts or {}) do
		out[#out + 1] = "sandbox: " .. txt.escape(("script: pid %s %s %s %d bytes sha256:%s%s"):format(
			tostring(math.tointeger(x.pid) or x.pid), tostring(x.language), tostring(x.source),
			math.tointeger(x.size) or 0, tostring(x.sha256 or "-"), x.cut and ", cut" or "")) .. "\n"
	end
	local over = math.tointeger(r.scripts_over)
	if over and over > 0 then
		out[#out + 1] = ("sandbox: note: %s scripts beyond the budget were run but not kept\n"):format(
			txt.thousands(over))
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
					txt.thousands(n), d[2], d[3]) }
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

--- Exit codes of run.lua.
M.EXIT_LIMIT = 124 -- a limit stopped the program
M.EXIT_REFUSED = 125 -- a refusal ended it
M.EXIT_CANNOT = 126 -- the box could not be set up, or found but cannot run
M.EXIT_NOT_FOUND = 127 -- the program to run is not found (as env, timeout, shells)

--- The words of a program that is not there (`sbx.stdbox.find_program`):
-- the error that exits `M.EXIT_NOT_FOUND`.
M.NOT_FOUND = "not found"

-- The notes on processes of the box other than the command that died of
-- a limit's signal (`words.death_note`: a limit only on the kernel's
-- record), in the order of their lines, so that two runs give the same
-- report.
local function death_notes(r, lim)
	local notes = {}
	for _, d in ipairs(r.deaths or {}) do
		local text, cause
		if not d.command and d.signame then text, cause = words.death_note(d, lim) end
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
		text = ("note: %s refused an allocation of %d MiB%s"):format(words.limit_text("memory", lim),
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
			text = ("note: %s (%s) was full when the box ended"):format(txt.escape(f.path), txt.format_size(f.size)) }
	end
end

-- The note of the sleeps the analysis box skipped (core/super/sleep.c):
-- `note: sleeps skipped: 600 s in 3 calls`.
local function sleeps_note(r)
	local s = r.sleeps_skipped
	if not s then return nil end
	return { kind = "note", cause = "sleeps", seconds = s.seconds, calls = s.calls, longest = s.longest,
		text = ("note: sleeps skipped: %s in %d call%s"):format(txt.format_duration(txt.sleep_seconds(s.seconds)),
			s.calls, s.calls == 1 and "" or "s") }
end

-- The note of the processes that ran on after the command exited (the
-- analysis box follows its last process, `follow`; the result's
-- `outlived`): `note: 3 processes ran on after the command exited (12.0
-- s)`, and what ended them when a limit did.  Its time is the last one's
-- end, on the events' clock (the timeline puts it after their events).
local function outlived_note(r, lim)
	local o = r.outlived
	-- count 0: none ran on (processes that had ended are listed)
	if type(o) ~= "table" or o.count == 0 then return nil end
	local who = o.count and ("%d process%s"):format(o.count, o.count == 1 and "" or "es") or "processes"
	local why = o.killed and words.limit_words[o.killed] and (", until the %s ended them"):format(words.limit_text(o.killed, lim))
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
		evidence = d and words.not_limit_text({ signal = r.signal, signame = r.signame,
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
		return words.note_line(e.cause, e.name, { [e.cause] = e.limit })
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
		return words.killed_line(e.cause, { [e.cause] = e.limit })
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
-- in it escaped (`txt.escape`); nil for a notified call that was allowed
-- (and for the one a stop answered: the run's own line names it).
function M.line(e)
	local l = event_line(e)
	return l and txt.escape(l)
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

return M
