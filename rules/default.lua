-- The default verdict rules of sbxlua (sbx.verdict): each reads a run's
-- structured result (what `run.lua --json` writes) and, when the run has
-- one, its behaviour summary (`run.behaviour`, fields named as in
-- VirusTotal's file-behaviour object).  A rule over a field or an event
-- kind a run does not have simply does not fire; each rule's doc says
-- which of its inputs every run has today and which only some runs have.
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

-- a list entry's path: a string, or a table's `path`
local function path_of(v)
	if type(v) == "string" then return v end
	if type(v) == "table" then return v.path or v.name end
	return nil
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

local CREDENTIALS = {
	"^/etc/shadow", "^/etc/gshadow", "^/etc/sudoers", "/%.ssh/", "/%.aws/credentials",
	"/%.gnupg/", "/%.netrc$", "/%.docker/config%.json$", "/%.kube/config$",
	"/%.git%-credentials$", "/%.pgpass$", "/decoy", "/canary",
}

local function is_credential(p)
	for _, pat in ipairs(CREDENTIALS) do
		if p:find(pat) then return true end
	end
	return false
end

local LIMITS = { wall = true, cpu = true, memory = true, tasks = true, output = true,
	open_files = true, file_size = true, tmp = true }

local STORM = 64 -- processes or execs of one run that make a storm

return {
	{
		name = "left_box",
		doc = "Tried to leave the box: any refusal.  Fires on a `refused` event (the explain "
			.. "channel; absent from runs without it), a `killed` event of cause `refused`, "
			.. "or exit code 125.",
		fn = function(run)
			local r = events(run, "refused")
			for _, e in ipairs(run.events or {}) do
				if e.kind == "killed" and e.cause == "refused" then r[#r + 1] = e end
			end
			if #r == 0 and run.exit_code ~= 125 then return nil end
			local what = r[1] and (r[1].syscall or r[1].call or r[1].path or r[1].name) or "a refused call"
			return { verdict = "malicious", severity = 8, attack = { "T1611" },
				reason = ("tried to leave the box: %d refusal(s), first %s"):format(math.max(#r, 1),
					tostring(what)) }
		end,
	},
	{
		name = "credentials",
		doc = "Read a credential file or a decoy.  Reads `behaviour.files_opened` and `open` "
			.. "events (the opens are events under a profile that notifies them, e.g. strict).",
		fn = function(run)
			local seen = {}
			for _, v in ipairs(behaviour(run, "files_opened")) do seen[#seen + 1] = path_of(v) end
			for _, e in ipairs(events(run, "open")) do seen[#seen + 1] = e.path end
			for _, p in ipairs(seen) do
				if type(p) == "string" and is_credential(p) then
					return { verdict = "malicious", severity = 8, attack = { "T1552", "T1003.008" },
						reason = "read a credential file or a decoy: " .. p }
				end
			end
			return nil
		end,
	},
	{
		name = "network",
		doc = "Tried the network.  Reads `behaviour.dns_lookups` and `behaviour.ip_traffic` (the "
			.. "connects and sends of IP sockets, and the sink's traffic), else the IP `connect` "
			.. "events; a unix socket (glibc's name service, a local daemon) is not the network.",
		fn = function(run)
			local dns, traffic = behaviour(run, "dns_lookups"), behaviour(run, "ip_traffic")
			local n, first = #dns + #traffic, nil
			if run.behaviour == nil then
				for _, e in ipairs(events(run, "connect")) do
					if e.family == "inet" or e.family == "inet6" then
						n = n + 1
						first = first or e.addr
					end
				end
			end
			if n == 0 then return nil end
			first = first or (dns[1] and dns[1].hostname)
				or (traffic[1] and ("%s:%s"):format(traffic[1].destination_ip,
					math.tointeger(traffic[1].destination_port) or traffic[1].destination_port))
			return { verdict = "suspicious", severity = 5, attack = { "T1071" },
				reason = ("tried the network: %d attempt(s), first %s"):format(n, tostring(first)) }
		end,
	},
	{
		name = "storm",
		doc = "A process or exec storm: the task limit stopped the box, or the sampler saw "
			.. "at least 64 tasks (`measured.tasks_peak`, every sampled run), or the behaviour "
			.. "summary lists at least 64 processes or command executions (only with it).",
		fn = function(run)
			local m = run.measured or {}
			local procs = count(behaviour(run, "processes_tree"))
			local execs = #behaviour(run, "command_executions") + #events(run, "exec")
			local tasks_killed = false
			for _, e in ipairs(run.events or {}) do
				if e.kind == "killed" and e.cause == "tasks" then tasks_killed = true end
			end
			if tasks_killed or (m.tasks_peak or 0) >= STORM or procs >= STORM then
				return { verdict = "suspicious", severity = 6, attack = { "T1499" },
					reason = ("process storm: %s"):format(tasks_killed and "stopped by the task limit"
						or ("%d tasks"):format(math.max(m.tasks_peak or 0, procs))) }
			end
			if execs >= STORM then
				return { verdict = "suspicious", severity = 5, attack = { "T1059" },
					reason = ("exec storm: %d executions"):format(execs) }
			end
			return nil
		end,
	},
	{
		name = "wrote_executable",
		doc = "Wrote an executable or a script.  Reads `behaviour.files_written` and "
			.. "`behaviour.files_dropped` (an executable mode, an ELF or #! start, or a script's "
			.. "name): the files the box left in its writable places.",
		fn = function(run)
			local files = {}
			for _, v in ipairs(behaviour(run, "files_dropped")) do files[#files + 1] = v end
			for _, v in ipairs(behaviour(run, "files_written")) do files[#files + 1] = v end
			for _, v in ipairs(files) do
				local p = path_of(v) or "?"
				local t = type(v) == "table" and v or {}
				local mode = t.mode
				if type(mode) == "string" then mode = math.tointeger(tonumber(mode, 8)) end
				local exec = (math.type(mode) == "integer" and mode & 73 ~= 0)
					or t.type == "ELF" or t.type == "script" or t.executable == true
					or p:find("%.sh$") or p:find("%.py$") or p:find("%.pl$") or p:find("%.elf$")
				if exec then
					return { verdict = "suspicious", severity = 5, attack = { "T1105" },
						reason = "wrote an executable or a script: " .. p }
				end
			end
			return nil
		end,
	},
	{
		name = "ptrace_namespaces",
		doc = "Tried ptrace or namespaces (ptrace, process_vm_*, unshare, setns, clone with "
			.. "namespace flags).  Reads `refused` events and `behaviour.calls_highlighted`; "
			.. "the refusals the explain channel named.",
		fn = function(run)
			local calls = {}
			for _, e in ipairs(events(run, "refused")) do calls[#calls + 1] = e.syscall or e.call end
			for _, c in ipairs(behaviour(run, "calls_highlighted")) do calls[#calls + 1] = c end
			for _, c in ipairs(calls) do
				if type(c) == "string" then
					if c == "ptrace" or c:find("^process_vm_") then
						return { verdict = "malicious", severity = 7, attack = { "T1055" },
							reason = "tried ptrace: " .. c }
					end
					-- a clone is highlighted only with namespace flags (sbx.behaviour)
					if c == "unshare" or c == "setns" or c == "clone" or c == "clone3" or c == "pivot_root" then
						return { verdict = "malicious", severity = 7, attack = { "T1611" },
							reason = "tried namespaces: " .. c }
					end
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
					return { verdict = "suspicious", severity = 4, attack = { "T1499" },
						reason = ("hit a limit: %s"):format(e.cause) }
				end
			end
			return nil
		end,
	},
	{
		name = "sleeper",
		doc = "Exited only at the wall clock, having used less than half of it in CPU time "
			.. "(a sleeping evasion): a `killed` event of cause `wall` and `measured.cpu`.",
		fn = function(run)
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
		name = "never_ran",
		doc = "The program never ran, so nothing can be said of it: the box could not be set "
			.. "up for it (`cannot` or `lost`), or batch could not build its box (`error`).",
		fn = function(run)
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
