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

-- the report's parts, each its own module; their names are the report's too
local txt = require "sbx.text"
local words = require "sbx.words"
local ev = require "sbx.events"
local verify = require "sbx.verify"
for _, part in ipairs { txt, words, ev, verify } do
	for k, v in pairs(part) do M[k] = v end
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
			out[s] = { text = txt.escape(shown), shown = #shown, bytes = r[s .. "_bytes"] or #r[s] }
		end
	end
	return out
end

--- The text report of a run: one line per event, each `sandbox: ` and
-- escaped, after the isolation report's lines when `verbose`.
-- @tparam table r the core result
-- @tparam table info the claims
-- @tparam table events from `ev.events` (and any the caller adds)
-- @tparam table verified from `verify.verify`
-- @tparam[opt] boolean verbose
-- @treturn string
function M.text(r, info, events, verified, verbose)
	local lines = {}
	-- a backend's isolation line comes first, before the verbose lines
	local first = events[1] and events[1].kind == "isolation" and events[1] or nil
	if first then lines[1] = ev.line(first) end
	if verbose then
		for _, l in ipairs(verify.isolation_lines(r, info, verified)) do lines[#lines + 1] = l end
		for _, l in ipairs(M.written_lines(info.files or {}, r)) do lines[#lines + 1] = l end
		for _, l in ipairs(ev.call_summary(events)) do lines[#lines + 1] = l end
	end
	for _, e in ipairs(events) do
		if e ~= first then lines[#lines + 1] = ev.line(e) end
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
	return ("written: %s (file %s, %s, %s)"):format(f.path, mode, txt.format_size(f.size), what)
end

--- The --verbose lines of the written files, then the bounds the record
-- hit: `written: stopped at a bound (entries, depth)` (entries, depth,
-- bytes read, bytes kept), and `written: some entries could not be read`
-- (a directory or file the caller may not read, a name too long).
function M.written_lines(files, r)
	local lines = {}
	for _, f in ipairs(files) do
		if not f.decoy then lines[#lines + 1] = ev.line { kind = "isolation", text = M.written_line(f) } end
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
			noted, cause = words.death_note(d, lim)
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
-- (`txt.escape`), and the object holding it lists the field in `escaped`
-- (for a list of strings, the list's field); true when a list's string was.
local function utf8_safe(v)
	if type(v) == "string" then
		if utf8.len(v) then return v, false end
		return txt.escape(v), true
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
-- (`verify.verified_states`), not booleans.  Strings that are not UTF-8 are
-- escaped and named in their object's `escaped` list.
function M.result(r, info, events, verified)
	return (utf8_safe(M.raw_result(r, info, events, verified)))
end

--- The structured result before the escape of strings that are not UTF-8.
function M.raw_result(r, info, events, verified)
	local lim, how, uncounted = {}, limits.enforcement(r), words.uncounted_of(info)
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
		exit_code = ev.exit_code(events),
		code = r.code,
		signal = r.signal,
		events = events,
		limits = json.object(lim),
		measured = json.object { memory_peak = r.memory_peak, tasks_peak = r.tasks_peak, cpu = r.cpu,
			samples = r.samples, cgroup = r.cgroup, proc_events = r.proc_events },
		deaths = M.deaths(r, info),
		isolation = verify.isolation(info),
		verified = verify.verified_states(r, info, verified),
		digest = verify.digest(info),
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
