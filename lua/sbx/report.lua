--- The report of a run: events, the text report, the structured result,
-- the verification of every claim against the kernel's view from inside
-- the box, and the environment digest.
-- The text report has one line per event, each beginning `sandbox: `, with
-- a fixed vocabulary and no pid, time or host path: two runs of the same
-- case give the same bytes.
-- @module sbx.report
local core = require "sbx.core"
local limits = require "sbx.limits"

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

--- Exit codes of run.lua.
M.EXIT_LIMIT = 124 -- a limit stopped the program
M.EXIT_REFUSED = 125 -- a refusal ended it
M.EXIT_CANNOT = 126 -- the box could not be set up

-- The notes on processes of the box other than the command that died of
-- a limit's signal (`sbx.limits.death_note`: a limit only on the kernel's
-- record), in the order of their lines, so that two runs give the same
-- report.
local function death_notes(r, lim)
	local notes = {}
	for _, d in ipairs(r.deaths or {}) do
		local text, cause
		if not d.command and d.signame then text, cause = limits.death_note(d, lim) end
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

-- the main event of a run
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
		evidence = d and limits.not_limit({ signal = r.signal, signame = r.signame,
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
-- @tparam table info the claims of `sbx.box.build`
function M.events(r, info)
	local lim = info.limits or {}
	local events = {}
	-- the explain channel's events, in order (sbx.core, notify.c); the
	-- mmap cap is the box's, named in the refusal's line
	local cap = info.notify and info.notify.mmap_cap
	for _, e in ipairs(r.events or {}) do
		if e.kind == "mmap" and cap then e.cap = cap end
		events[#events + 1] = e
	end
	if r.events_dropped and r.events_dropped > 0 then
		events[#events + 1] = { kind = "dropped", count = r.events_dropped }
	end
	if r.rule_error then events[#events + 1] = { kind = "rule", error = r.rule_error } end
	if r.refused and r.refused.kind == "mmap" and cap then r.refused.cap = cap end
	events[#events + 1] = end_event(r, lim)
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
-- `open /etc/shadow`, `connect 10.0.0.1:4444`, `syscall 41 (socket)`.
function M.call_words(e)
	local k = e.kind
	if k == "open" or k == "exec" then return k .. " " .. (e.path or "?") end
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
M.CALL_KINDS = { "open", "exec", "connect", "bind", "send", "clone", "mmap", "ptrace", "syscall" }
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

local function event_line(e)
	if call_kind[e.kind] then
		-- refusals only: an allowed call is in the JSON, not the text;
		-- a "stop" is the run's last line
		if e.answer ~= "deny" then return nil end
		return ("denied: %s (%s)%s"):format(M.call_words(e), e.errno or "EPERM",
			(e.count or 1) > 1 and (" x%d"):format(e.count) or "")
	end
	if e.kind == "refused" then return "refused: " .. M.call_words(e.call) end
	if e.kind == "dropped" then return ("notified: %d more events not kept"):format(e.count) end
	if e.kind == "rule" then return "rule failed: " .. e.error end
	if e.kind == "setid" then return setid_lines[e.action](e) end
	if e.kind == "exit" then return ("exit %d"):format(e.code) end
	if e.kind == "interrupted" then return ("interrupted (%s)"):format(e.name) end
	if e.kind == "note" then
		if e.text then return e.text end
		return limits.note_line(e.cause, e.name, { [e.cause] = e.limit })
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
		return limits.report_line(e.cause, { [e.cause] = e.limit })
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
		if e.kind == "cannot" or e.kind == "lost" then return M.EXIT_CANNOT end
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
function M.verify(r, _info, host)
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
		local mp, opts, fstype = l:match("^%d+ %d+ %S+ %S+ (%S+) (%S+).- %- (%S+)")
		if mp == "/" then root = { opts = opts, fstype = fstype } end
	end
	v.private_root = root ~= nil and root.fstype == "tmpfs"
	v.read_only_root = root ~= nil and (root.opts .. ","):match("^ro,") ~= nil
	local uid = status:match("\nUid:%s*(%d+)")
	v.uid = uid ~= nil and tonumber(uid) == 1000
	-- Landlock keeps no trace in /proc: it is claimed when restrict_self
	-- succeeded (the run fails otherwise) but cannot be read back here.
	v.landlock = false
	v.rlimits = false -- the probe does not read /proc/self/limits
	return v
end

--- The isolation report: one boolean per protection.
function M.isolation(info)
	local ns = {}
	for _, n in ipairs(core.namespaces()) do ns[n] = false end
	for _, n in ipairs(info.namespaces) do ns[n] = true end
	return {
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
	local parts = { "sbxlua-environment-v1", "kind=namespaces", "os=linux", "arch=x86_64" }
	for _, n in ipairs(sorted_keys(iso.namespaces)) do
		parts[#parts + 1] = ("ns.%s=%s"):format(n, tostring(iso.namespaces[n]))
	end
	for _, k in ipairs { "private_root", "read_only_root", "no_new_privs",
		"capabilities_dropped", "seccomp", "seccomp_profile", "landlock", "landlock_abi",
		"rlimits", "network", "host_root" } do
		parts[#parts + 1] = ("%s=%s"):format(k, tostring(iso[k]))
	end
	for _, k in ipairs(sorted_keys(info.limits)) do
		parts[#parts + 1] = ("limit.%s=%s"):format(k, tostring(info.limits[k]))
	end
	for _, k in ipairs(sorted_keys(info.env)) do
		parts[#parts + 1] = ("env.%s=%s"):format(k, info.env[k])
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
		out[k] = state(iso[k], verified[k])
	end
	out.uid = state(true, verified.uid)
	out.landlock = state(iso.landlock, verified.landlock, false)
	out.rlimits = state(iso.rlimits, verified.rlimits, false)
	return out
end

--- The isolation report as `sandbox:` lines (for --verbose).
function M.isolation_lines(info, verified)
	local iso = M.isolation(info)
	local function tag(ok) return ok and "verified" or "failed" end
	local out = {}
	local names = {}
	for _, n in ipairs(info.namespaces) do names[#names + 1] = n end
	local all = true
	for _, n in ipairs(info.namespaces) do all = all and verified.namespaces[n] end
	out[#out + 1] = ("namespaces: %s (%s)"):format(table.concat(names, " "), tag(all))
	out[#out + 1] = ("root: private tmpfs (%s), read-only (%s)"):format(
		tag(verified.private_root), tag(verified.read_only_root))
	out[#out + 1] = ("no_new_privs: yes (%s)"):format(tag(verified.no_new_privs))
	out[#out + 1] = ("capabilities: none (%s)"):format(tag(verified.capabilities_dropped))
	if iso.seccomp then
		out[#out + 1] = ("seccomp: profile %s (%s)"):format(iso.seccomp_profile, tag(verified.seccomp))
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
	for _, l in ipairs(limits.describe(info.limits, info.enforcement, info.uncounted)) do out[#out + 1] = l end
	out[#out + 1] = ("digest: %s"):format(M.digest(info))
	for i, l in ipairs(out) do out[i] = M.escape(l) end
	return out
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
-- @tparam table info the claims of `sbx.box.build`
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
			noted, cause = limits.death_note(d, lim)
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

--- The structured result (for --json); `verified` holds states
-- (`M.verified_states`), not booleans.
function M.result(r, info, events, verified)
	local lim = {}
	for k, v in pairs(info.limits) do
		lim[k] = { value = v, enforcement = info.enforcement[k] or "none",
			uncounted = info.enforcement[k] == "sampled" and (info.uncounted or {})[k] or nil }
	end
	return {
		version = 1,
		outcome = r.outcome,
		exit_code = M.exit_code(events),
		code = r.code,
		signal = r.signal,
		events = events,
		limits = lim,
		measured = { memory_peak = r.memory_peak, tasks_peak = r.tasks_peak, cpu = r.cpu,
			samples = r.samples, cgroup = r.cgroup, proc_events = r.proc_events },
		deaths = M.deaths(r, info),
		isolation = M.isolation(info),
		verified = M.verified_states(r, info, verified),
		digest = M.digest(info),
		stdout_bytes = r.stdout_bytes,
		stderr_bytes = r.stderr_bytes,
	}
end

return M
