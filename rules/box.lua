-- SPDX-License-Identifier: MIT
-- The box's own rules (sbx.verdict): what the box saw of a run whatever
-- the technique: a call it refuses, the network tried at all, a process
-- storm, a limit, a sleeper, evidence past a budget, a program that never
-- ran, a written executable.  The technique rules (the other files of rules/) name what
-- the evidence shows with its ATT&CK id; these name none where the
-- evidence alone does not tell the technique (a refused call may be an
-- escape, a debugger check or a chmod; a limit may be hit by anyone).
-- Each reads a run's structured result (what `run.lua --json` writes)
-- and, when the run has one, its behaviour summary (`run.behaviour`); a
-- rule over a field or an event kind a run does not have does not fire.
-- Loaded with pure functions only (no io, os, require).

local function events(run, kind)
	local out = {}
	for _, e in ipairs(run.events or {}) do
		if e.kind == kind then out[#out + 1] = e end
	end
	return out
end

local function behaviour(run, field)
	local b = run.behaviour
	if type(b) ~= "table" or type(b[field]) ~= "table" then return {} end
	return b[field]
end

-- the processes of a tree: each node and its `children`, recursively
local function count(t)
	local n = 0
	for _, p in pairs(t) do
		n = n + 1
		if type(p) == "table" and type(p.children) == "table" then n = n + count(p.children) end
	end
	return n
end

local LIMITS = { wall = true, cpu = true, memory = true, tasks = true, output = true,
	open_files = true, file_size = true, tmp = true }

local STORM = 64 -- processes or execs of one run that make a storm

return {
	{
		name = "left_box",
		doc = "A call the box refuses: suspicious (6) when the box refused it and the program "
			.. "went on, malicious (8) when the box was stopped for it (a `killed` event of "
			.. "cause `refused`, or exit code 125).  No technique: the technique rules name "
			.. "what the call was for (an escape, a debugger check, a set-id bit, a module).",
		fn = function(run)
			local r = events(run, "refused")
			local stopped = run.exit_code == 125
			for _, e in ipairs(run.events or {}) do
				if e.kind == "killed" and e.cause == "refused" then stopped = true end
				if e.answer == "deny" or e.answer == "stop" then r[#r + 1] = e end
			end
			if #r == 0 and not stopped then return nil end
			local what = r[1] and (r[1].syscall or r[1].call or r[1].path or r[1].name) or "a refused call"
			return { verdict = stopped and "malicious" or "suspicious", severity = stopped and 8 or 6,
				reason = ("%s: %d refusal(s), first %s"):format(
					stopped and "stopped for a call the box refuses" or "made a call the box refuses",
					math.max(#r, 1), tostring(what)) }
		end,
	},
	{
		name = "network",
		doc = "Tried the network at all (no technique: the command-and-control rules name "
			.. "one): a name looked up through the sink, a connect or send of an IP socket, the "
			.. "sink's traffic; a unix socket (glibc's name service, a local daemon) is not the "
			.. "network.  Reads the facts (`sbx.facts`): `dns`, `connects`, `traffic`.",
		fn = function(_, F)
			local out, sent = {}, {}
			for _, c in ipairs(F.connects) do
				if not c.loopback then out[#out + 1] = c end
			end
			for _, t in ipairs(F.traffic) do
				if not t.loopback then sent[#sent + 1] = t end
			end
			local n = #F.dns + #out + #sent
			if n == 0 then return nil end
			local c, t = out[1], sent[1]
			local first = (F.dns[1] and F.dns[1].hostname) or (c and ("%s:%s"):format(c.ip, tostring(c.port)))
				or (t and ("%s:%s"):format(t.ip, tostring(t.port)))
			return { verdict = "suspicious", severity = 3,
				reason = ("tried the network: %d attempt(s), first %s"):format(n, tostring(first)) }
		end,
	},
	{
		name = "storm", attack = { "T1499" }, tactic = "impact",
		doc = "A process storm (T1499): the task limit stopped the box, or the sampler saw "
			.. "at least 64 tasks (`measured.tasks_peak`, every sampled run), or the behaviour "
			.. "summary lists, or the analysis box's clone events count, at least 64 processes; "
			.. "64 command executions alone are information (a build makes as many).",
		fn = function(run)
			local m = run.measured or {}
			local procs = count(behaviour(run, "processes_tree"))
			local execs = #behaviour(run, "command_executions") + #events(run, "exec")
			local tasks_killed, forks = false, 0
			for _, e in ipairs(run.events or {}) do
				if e.kind == "killed" and e.cause == "tasks" then tasks_killed = true end
				-- a process made (the analysis box's clone events; not a thread)
				if e.kind == "clone" and e.answer == "allow" then forks = forks + (math.tointeger(e.count) or 1) end
			end
			procs = math.max(procs, forks)
			if tasks_killed or (m.tasks_peak or 0) >= STORM or procs >= STORM then
				return { verdict = "suspicious", severity = 6, attack = { "T1499" },
					reason = ("process storm: %s"):format(tasks_killed and "stopped by the task limit"
						or ("%d tasks"):format(math.max(m.tasks_peak or 0, procs))) }
			end
			-- many executions are a build as often as a storm: information
			if execs >= STORM then
				return { verdict = "info", severity = 2, attack = {},
					reason = ("exec storm: %d executions"):format(execs) }
			end
			return nil
		end,
	},
	{
		name = "wrote_executable",
		doc = "Wrote an executable or a script (information: builds do; the ingress rule names "
			.. "a download that ran): a file left with an execute bit, a file left whose type "
			.. "(libmagic's, from its bytes) is an ELF or a script (`#!`) whatever its mode and "
			.. "name, or a path written whose name is a script's or an ELF's.  Reads the facts: "
			.. "`dropped` (`type`), `written`.",
		fn = function(_, F)
			for _, d in ipairs(F.dropped) do
				if d.executable then
					return { verdict = "info", severity = 2, reason = "wrote an executable or a script: " .. d.path }
				end
			end
			for _, d in ipairs(F.dropped) do
				local t = type(d.type) == "string" and d.type or ""
				if t:find("^ELF ") or t:find("%f[%w]script%f[%W]") then
					return { verdict = "info", severity = 2,
						reason = ("wrote an executable or a script: %s (%s)"):format(d.path, t) }
				end
			end
			for _, w in ipairs(F.written) do
				local p = w.path
				if p:find("%.sh$") or p:find("%.py$") or p:find("%.pl$") or p:find("%.elf$") then
					return { verdict = "info", severity = 2, reason = "wrote an executable or a script: " .. p }
				end
			end
			return nil
		end,
	},
	{
		name = "limit",
		doc = "A limit stopped the program (a `killed` event whose cause is a limit), or one "
			.. "killed another of its processes (a `note` event with a limit).",
		fn = function(run)
			for _, e in ipairs(run.events or {}) do
				if (e.kind == "killed" or e.kind == "note") and LIMITS[e.cause] then
					return { verdict = "suspicious", severity = 4,
						reason = ("hit a limit: %s"):format(e.cause) }
				end
			end
			return nil
		end,
	},
	{
		name = "sleeper", attack = { "T1497.003" }, tactic = "stealth",
		doc = "Exited only at the wall clock, having used less than half of it in CPU time "
			.. "(a sleeping evasion): a `killed` event of cause `wall` and `measured.cpu`; "
			.. "or asked to sleep at least the wall clock in sleeps the analysis box skipped "
			.. "(a `note` event of cause `sleeps`).",
		fn = function(run)
			local wall_limit = tonumber(((run.limits or {}).wall or {}).value)
			for _, e in ipairs(events(run, "note")) do
				if e.cause == "sleeps" and wall_limit and (tonumber(e.seconds) or 0) >= wall_limit then
					return { verdict = "suspicious", severity = 5, attack = { "T1497.003" },
						reason = ("asked to sleep %s s, past the wall clock (%s s): skipped"):format(
							tostring(math.floor(e.seconds + 0.5)), tostring(wall_limit)) }
				end
			end
			for _, e in ipairs(run.events or {}) do
				if e.kind == "killed" and e.cause == "wall" then
					local cpu = (run.measured or {}).cpu or 0
					local wall = tonumber(e.limit) or 0
					if cpu < wall / 2 then
						return { verdict = "suspicious", severity = 5, attack = { "T1497.003" },
							reason = ("ran until the wall clock (%s s) while idle"):format(tostring(e.limit)) }
					end
				end
			end
			return nil
		end,
	},
	{
		name = "evidence_flood",
		doc = "Evidence past a budget (suspicious, 5): the explain channel's events past their "
			.. "kind's budget (summarised by directory with the first and the last, or counted), "
			.. "the sink's records past its own, files left uninspected.  A real program fits the "
			.. "budgets (docs/behaviour.md); a sample that floods them hides what it does next "
			.. "among the flood.  Reads the facts: `overflow`.",
		fn = function(_, F)
			local O = F.overflow or {}
			if #O == 0 then return nil end
			local parts, total = {}, 0
			-- a flood's names are the program's, as long as it likes
			local function short(x)
				x = tostring(x)
				return #x > 96 and x:sub(1, 45) .. "[...]" .. x:sub(-46) or x
			end
			for i, o in ipairs(O) do
				total = total + o.count
				if i <= 3 then
					local what = o.what == "events" and (o.kind or "events") or o.what
					if o.summarised then
						parts[#parts + 1] = ("%s %d summarised%s (first %s, last %s)"):format(what, o.count,
							o.dir and " in " .. short(o.dir) or "", short(o.first), short(o.last))
					else
						parts[#parts + 1] = ("%s %d not kept"):format(what, o.count)
					end
				end
			end
			if #O > 3 then parts[#parts + 1] = ("%d more"):format(#O - 3) end
			return { verdict = "suspicious", severity = 5,
				reason = ("evidence past its budget (%d): %s"):format(total, table.concat(parts, "; ")) }
		end,
	},
	{
		name = "never_ran",
		doc = "The program never ran, so nothing can be said of it: the box could not be set "
			.. "up for it (`cannot` or `lost`), batch could not build its box (`error`), or its "
			.. "interpreter could not open the script the command line named (not in the box) "
			.. "and failed.",
		fn = function(run)
			if run.script_missing and run.outcome == "exit" and run.exit_code ~= 0 then
				return { verdict = "unknown", severity = 1, reason = ("never ran: the script %s is not in "
					.. "the box (the interpreter exited %s)"):format(run.script_missing, run.exit_code) }
			end
			if run.outcome ~= "cannot" and run.outcome ~= "lost" and run.outcome ~= "error" then
				return nil
			end
			local why = run.outcome
			for _, e in ipairs(run.events or {}) do
				if e.kind == "cannot" then why = ("cannot %s: %s"):format(e.stage or "set up", e.errno or "?") end
			end
			if run.error then why = run.error end
			return { verdict = "unknown", severity = 1, reason = "never ran: " .. why }
		end,
	},
}
