-- SPDX-License-Identifier: MIT
--- sbx.behaviour: one run's behaviour summary, its fields named as in
-- VirusTotal's file-behaviour object, the `behash` over its canonical
-- form, and the aligned text `run.lua --behaviour` prints.
-- The summary is built from the structured result (`sbx.report.result`,
-- with the sink's fields of `sbx.sink.json`): the explain channel's
-- events, the written files and the sink's records.  See
-- docs/behaviour.md for what each field can show today.
-- @module sbx.behaviour
local core = require "sbx.core"
local facts = require "sbx.facts"
local written = require "sbx.written"
local sleep_seconds = require("sbx.report").sleep_seconds
local argcheck = require("sbx._arg").check

local M = {}

local sort, concat = table.sort, table.concat

--- The fields of a summary, in the order the text prints them.
M.FIELDS = { "files_opened", "files_written", "files_deleted", "files_attribute_changed",
	"files_dropped", "memory_files", "command_executions", "scripts_run", "processes_created",
	"processes_tree", "signals_observed", "dns_lookups", "ip_traffic", "unix_sockets", "http_conversations",
	"calls_highlighted", "tags",
	"mitre_attack_techniques", "verdicts" }

local WRITE = 1 | 2 | 64 | 512 -- O_WRONLY, O_RDWR, O_CREAT, O_TRUNC

-- a port as digits (a JSON round trip makes 4444 a float)
local function port_text(p)
	local n = math.tointeger(tonumber(p))
	return n and ("%d"):format(n) or "-"
end

-- a sorted list of a set's keys
local keys = require("sbx.json").sorted_keys

local function refused(e)
	return e.answer == "deny" or e.answer == "stop"
end

local function call_of(e)
	return e.syscall or e.kind
end


-- The process tree's node for pid in the collection st, named by the
-- pid's first image (placed under its parent later: `processes_tree`).
local function tree_node(st, pid, name)
	if st.nodes[pid] then return end
	st.nodes[pid] = { process_id = tostring(pid), name = name or "?", children = {} }
	st.order[#st.order + 1] = pid
end

-- The files an event names: opened (and written, by its flags), deleted,
-- renamed, attributes changed.
local function note_file(st, e)
	local k = e.kind
	if type(e.path) ~= "string" then return end
	if k == "open" then
		st.opened[e.path] = true
		if math.type(e.flags) == "integer" and e.flags & WRITE ~= 0 then st.written[e.path] = true end
	elseif k == "delete" then
		st.deleted[e.path] = true
	elseif k == "rename" then
		-- the old name is gone, the new one written
		st.deleted[e.path] = true
		if type(e.to) == "string" then st.written[e.to] = true end
	elseif k == "attribute" then
		st.changed[e.path] = true
	end
end

-- The nearest ancestor of pid that has a node in the tree (the parents
-- the events name: a forked subshell no event names has no node of its
-- own, its children hang under its parent's); nil for a root, and for a
-- chain that comes back to pid (a pid the box reused).
local function ancestor(st, pid)
	local p, depth = st.parent[pid], 0
	while p and p ~= pid and depth < 64 do
		if st.nodes[p] then return p end
		p, depth = st.parent[p], depth + 1
	end
	return nil
end

-- The node pid hangs under: its nearest ancestor with a node, unless that
-- one's own ancestors lead back to pid (pids the box reused can make a
-- loop: then pid is a root, and nothing of the loop is lost).
local function parent_node(st, pid)
	local p = ancestor(st, pid)
	local q, depth = p, 0
	while q and depth < 64 do
		if q == pid then return nil end
		q, depth = ancestor(st, q), depth + 1
	end
	return p
end

-- Whether an exec event is an attempt that could not run (its file not
-- there, not executable: the supervisor's lookup, `result`), such as
-- each failed candidate of a PATH search: not a process, not a command.
local function exec_failed(e)
	return type(e.result) == "string" and e.result ~= "found"
end

-- An exec event: the command line, the process created, the box's own
-- command (the first exec), and the tree's node.
local function note_exec(st, e)
	if exec_failed(e) then return end
	local argv = type(e.argv) == "table" and e.argv or { e.path }
	local line = concat(argv, " ")
	st.execs[#st.execs + 1] = line
	st.command = st.command or e.path or argv[1]
	st.created[e.path or argv[1] or "?"] = true
	-- an exec of a memfd: its payload, hashed by the supervisor at the call
	if type(e.sha256) == "string" then
		-- (no mode: every mode of the JSON is a file's, in octal text)
		local d = { path = e.path, size = e.size, type = e.type, mime = e.mime, executed_from_memory = true }
		for _, h in ipairs(written.HASHES) do d[h] = e[h] end
		st.from_memory[e.path .. " " .. e.sha256] = d
	end
	if e.pid then tree_node(st, e.pid, e.path or argv[1]) end
end

-- A connect or send event's destination, by protocol, address and port
-- (the protocol the supervisor read from the socket: `ip` when it could
-- not); a unix socket's path is its own kind, `unix_sockets`, never an
-- address of ip_traffic.
local function note_connection(st, e)
	if e.family == "unix" then
		st.unix[e.addr] = true
		return
	end
	if e.family ~= "inet" and e.family ~= "inet6" then return end
	local ip, port = facts.split_addr(e.addr)
	if not ip then return end
	local proto = e.protocol or "ip"
	st.traffic[("%s %s %s"):format(proto, ip, port_text(port))] = {
		transport_layer_protocol = proto,
		destination_ip = ip, destination_port = port, answer = e.answer }
end

-- The calls and tags an event highlights (a refused call, ptrace, a
-- clone into namespaces, a death for a refused call).
local function note_highlights(st, e)
	local k, calls, tags = e.kind, st.calls, st.tags
	if refused(e) then
		calls[call_of(e)] = true
		tags.refused_calls = true
	end
	if k == "ptrace" then calls.ptrace, tags.ptrace = true, true end
	if k == "clone" and e.namespaces then calls[call_of(e)], tags.namespaces = true, true end
	if k == "killed" and e.cause == "refused" then tags.refused_calls = true end
end

-- The explain channel's events, collected: the sets of files, commands,
-- processes, calls, tags and traffic, and the tree's nodes so far.
local function collect_events(res)
	local st = { opened = {}, written = {}, deleted = {}, changed = {}, execs = {}, created = {},
		memfds = {}, signals = {}, from_memory = {},
		calls = {}, tags = {}, traffic = {}, unix = {}, nodes = {}, order = {}, parent = {}, command = nil,
		seen = {}, seen_order = {} }
	for _, e in ipairs(res.events or {}) do
		local k = e.kind
		-- a process's parent: the kernel's at its first event that names
		-- one (a later one may be the box's init, after reparenting)
		if e.pid and math.type(e.ppid) == "integer" and e.ppid > 0 and not st.parent[e.pid] then
			st.parent[e.pid] = e.ppid
		end
		-- every process the events name, in the order first named
		if math.type(e.pid) == "integer" and not st.seen[e.pid] then
			st.seen[e.pid] = true
			st.seen_order[#st.seen_order + 1] = e.pid
		end
		if k == "open" or k == "delete" or k == "rename" or k == "attribute" then
			note_file(st, e)
		elseif k == "exec" then
			note_exec(st, e)
		elseif (k == "connect" or k == "send") and e.addr then
			note_connection(st, e)
		elseif k == "memfd" and e.answer == "allow" then
			st.memfds[e.path or ""] = true
		elseif k == "signal" and e.answer == "allow" then
			-- the signal by name, the target's pid is left out (it
			-- differs from run to run); 0 is an existence probe
			st.signals[e.signame or ("signal %d"):format(e.signal or 0)] = true
		end
		note_highlights(st, e)
	end
	return st
end

-- The sink's traffic records added to the events' (bytes summed).
local function collect_traffic(res, traffic)
	for _, t in ipairs((res.sink or {}).traffic or {}) do
		local key = ("%s %s %s"):format(t.protocol, t.address, port_text(t.port))
		local entry = traffic[key] or { transport_layer_protocol = t.protocol,
			destination_ip = t.address, destination_port = t.port }
		entry.bytes = (entry.bytes or 0) + (t.bytes or 0)
		traffic[key] = entry
	end
end

-- The sink's DNS lookups by hostname, with the addresses they resolved to.
local function collect_dns(res)
	local dns = {}
	for _, d in ipairs((res.sink or {}).dns or {}) do
		local entry = dns[d.hostname] or { hostname = d.hostname, resolved_ips = {} }
		if d.answer and d.answer ~= "NXDOMAIN" and d.answer ~= "none" then
			entry.resolved_ips[#entry.resolved_ips + 1] = d.answer
		end
		dns[d.hostname] = entry
	end
	return dns
end

-- The files the box left behind, by path (each one written too; `type`
-- and `mime` libmagic's, `executed` when an exec event named its path),
-- and the payloads executed from memory (`executed_from_memory`, no mode).
local function collect_dropped(res, st)
	local dropped = {}
	for _, f in ipairs(res.files_dropped or {}) do
		local d = { path = f.path, size = f.size, mode = f.mode, type = f.type, mime = f.mime,
			executed = st.created[f.path] or nil }
		for _, h in ipairs(written.HASHES) do d[h] = f[h] end
		dropped[#dropped + 1] = d
		st.written[f.path] = true
	end
	for _, k in ipairs(keys(st.from_memory)) do dropped[#dropped + 1] = st.from_memory[k] end
	sort(dropped, function(a, b) return a.path < b.path end)
	return dropped
end

-- The written files' links and the decoys: links written, decoys changed
-- or read.
local function collect_files(res, st)
	for _, f in ipairs(res.files or {}) do
		if f.type == "link" and not f.decoy then st.written[f.path] = true end
		if f.decoy and f.markers and #f.markers > 0 and f.sha256 == nil then st.tags.decoy_changed = true end
	end
	for _, d in ipairs(res.decoys or {}) do
		if st.opened[d.path] then st.tags.decoy_read = true end
	end
end

-- The tags of what was seen at all: network, dropper, exec.
local function collect_tags(st, dns, dropped)
	local tags = st.tags
	for _, t in pairs(st.traffic) do
		if t.bytes then tags.network = true end
	end
	if next(dns) or next(st.traffic) then tags.network = true end
	if #dropped > 0 then tags.dropper = true end
	if #st.execs > 0 then tags.exec = true end
end

-- The tag of a run that looked for a sandbox, a virtual machine or a
-- debugger (VirusTotal's `detect_debug_environment`): the checks of
-- `sbx.facts.ENVIRONMENT_CHECKS`, the same the rule T1497.001 reads.
local function collect_checks(res, tags)
	if #facts.of(res).environment_checks > 0 then tags.detect_debug_environment = true end
end

-- children by name: the text and the JSON do not follow the order the
-- calls happened to come in
local function by_name(list)
	sort(list, function(a, b) return a.name < b.name end)
	for _, n in ipairs(list) do by_name(n.children) end
end

-- The image an exec event gave a process whose kernel name (comm, at
-- most 15 bytes) is comm: the one whose base name it begins (the first
-- such, sorted); nil when none did.
local function image_by_comm(st, comm)
	local found
	for _, n in pairs(st.nodes) do
		if not n.fork and n.name:match("[^/]*$"):sub(1, 15) == comm and (not found or n.name < found) then
			found = n.name
		end
	end
	return found
end

-- The image of a process that executed none: its parent's (a fork
-- keeps its parent's image), up the parents the events name; for one
-- whose parent had died before it was seen (reparented to the box's
-- init, as a daemon's is), the image its kernel name (`comms`, of the
-- processes alive or ended when the command's end was looked at)
-- matches, else that name.
local function fork_image(st, comms, pid, depth)
	local n = st.nodes[pid]
	if n and not n.fork then return n.name end
	local p = st.parent[pid]
	if p and p ~= pid and depth < 64 and (st.seen[p] or comms[p]) then
		local name = fork_image(st, comms, p, depth + 1)
		if name then return name end
	end
	local c = comms[pid]
	return c and (image_by_comm(st, c) or c) or nil
end

-- The processes no exec event names: each other process the events name
-- (a forked child that never executed: a worker, a daemon's second
-- fork), and each alive when the command ended (the result's `outlived`,
-- a following box), named by their parents' images (`fork_image`) and
-- marked `fork`; those alive when the command ended marked `outlived`.
-- Only where the events hold the execs (a profile that records them, as
-- the analysis box's does): else no process has an image to be named by,
-- and one without an exec event need not be a fork.
local function fork_nodes(res, st)
	if #st.execs == 0 then return end
	local o, comms, pids = res.outlived, {}, {}
	local ran_on = type(o) == "table" and type(o.processes) == "table" and o.processes or {}
	local ended = type(o) == "table" and type(o.ended) == "table" and o.ended or {}
	for _, list in ipairs({ ended, ran_on }) do
		for _, p in ipairs(list) do
			if math.type(p.pid) == "integer" and type(p.name) == "string" then comms[p.pid] = p.name end
		end
	end
	for _, pid in ipairs(st.seen_order) do
		if not st.nodes[pid] then pids[#pids + 1] = pid end
	end
	for _, p in ipairs(ran_on) do
		if math.type(p.pid) == "integer" and not st.nodes[p.pid] and not st.seen[p.pid] then
			pids[#pids + 1] = p.pid
		end
	end
	-- named on the exec nodes alone: the order they come in changes nothing
	local names = {}
	for i, pid in ipairs(pids) do names[i] = fork_image(st, comms, pid, 0) or "?" end
	for i, pid in ipairs(pids) do
		tree_node(st, pid, names[i])
		st.nodes[pid].fork = true
	end
	for _, p in ipairs(ran_on) do
		if st.nodes[p.pid] then st.nodes[p.pid].outlived = true end
	end
end

-- The processes as far as the events go: each process an exec event, any
-- other event or a notable death names, by pid, under its nearest
-- ancestor that has a node (the parents the kernel named at the events:
-- `ppid`), placed once every event is read, so the order the calls came
-- in changes nothing; a process with no such ancestor is a root.  Sorted
-- by name.
local function processes_tree(res, st)
	for _, d in ipairs((res.deaths or {}).notable or {}) do
		if d.pid then tree_node(st, d.pid, d.command) end
	end
	fork_nodes(res, st)
	local roots = {}
	for _, pid in ipairs(st.order) do
		local p = parent_node(st, pid)
		local list = p and st.nodes[p].children or roots
		list[#list + 1] = st.nodes[pid]
	end
	by_name(roots)
	return roots
end

-- The sink's HTTP requests (`sbx.sink.json`), in the order they came:
-- method, url, host, port, headers, body_sha256, body_size, body (its
-- first bytes, escaped).
local function http_conversations(res)
	local list = {}
	for _, c in ipairs(res.sink and res.sink.http or {}) do
		list[#list + 1] = { method = c.method, url = c.url, host = c.host, port = c.port, headers = c.headers,
			body_sha256 = c.body_sha256, body_size = c.body_size, body = c.body }
	end
	return list
end

-- The DNS lookups by hostname (addresses sorted), the traffic by key.
local function network_lists(dns, traffic)
	local dns_list, traffic_list = {}, {}
	for _, h in ipairs(keys(dns)) do
		sort(dns[h].resolved_ips)
		dns_list[#dns_list + 1] = dns[h]
	end
	for _, k in ipairs(keys(traffic)) do traffic_list[#traffic_list + 1] = traffic[k] end
	return dns_list, traffic_list
end

-- The sleeps the analysis box skipped (core/super/sleep.c), from the
-- report's note: `{seconds = 600, calls = 3}`, or nil.
-- the scripts the interpreters ran (`sbx.report.result`'s `scripts`):
-- each {source, sha256, size, language, cut} once, in the order first run
local function scripts_run(res)
	local out, seen = {}, {}
	for _, x in ipairs(type(res.scripts) == "table" and res.scripts or {}) do
		local k = tostring(x.source) .. "\0" .. tostring(x.sha256)
		if not seen[k] then
			seen[k] = true
			out[#out + 1] = { source = x.source, sha256 = x.sha256, size = x.size,
				language = x.language, cut = x.cut or nil }
		end
	end
	return out
end

local function sleeps_of(res)
	for _, e in ipairs(res.events or {}) do
		if e.kind == "note" and e.cause == "sleeps" then
			-- as the report says them (`sbx.report.sleep_seconds`)
			return { seconds = sleep_seconds(e.seconds), calls = e.calls }
		end
	end
	return nil
end

--- The behaviour summary of one run.
-- @tparam table res the structured result (`sbx.report.result`, with
--  `sbx.sink.json`'s fields when the run had the sink)
-- @treturn table the summary; `behash` is `sha256:` and 64 hex digits;
--  `command` the box's own command (the first exec event's path), if seen
function M.summary(res)
	argcheck(res, "table", 1, "summary")
	local st = collect_events(res)
	collect_traffic(res, st.traffic)
	local dns = collect_dns(res)
	local dropped = collect_dropped(res, st)
	collect_files(res, st)
	collect_tags(st, dns, dropped)
	collect_checks(res, st.tags)
	local ptree = processes_tree(res, st)
	local dns_list, traffic_list = network_lists(dns, st.traffic)
	sort(st.execs)
	local s = {
		files_opened = keys(st.opened),
		files_written = keys(st.written),
		files_deleted = keys(st.deleted),
		files_attribute_changed = keys(st.changed),
		files_dropped = dropped,
		memory_files = keys(st.memfds),
		command_executions = st.execs,
		-- out of the behash: a script's bytes, not what it did
		scripts_run = scripts_run(res),
		processes_created = keys(st.created),
		processes_tree = ptree,
		signals_observed = keys(st.signals),
		dns_lookups = dns_list,
		ip_traffic = traffic_list,
		http_conversations = http_conversations(res),
		has_pcap = res.pcap ~= nil,
		unix_sockets = keys(st.unix),
		calls_highlighted = keys(st.calls),
		tags = keys(st.tags),
		-- the sleeps the analysis box skipped (a note of the report),
		-- out of the behash: a length of time
		sleeps_skipped = sleeps_of(res),
		-- filled by the verdict step (`M.judged`)
		mitre_attack_techniques = {},
		verdicts = {},
		command = st.command,
	}
	s.behash = M.behash(s)
	return s
end

-- a finding's severity in VirusTotal's words
local function impact(sev)
	if sev <= 2 then return "IMPACT_SEVERITY_INFO" end
	if sev <= 4 then return "IMPACT_SEVERITY_LOW" end
	if sev <= 6 then return "IMPACT_SEVERITY_MEDIUM" end
	return "IMPACT_SEVERITY_HIGH"
end

--- Fills a summary's verdict fields from a judgement (`sbx.verdict.judge`):
-- `verdicts` its findings, `mitre_attack_techniques` their ATT&CK ids as
-- VirusTotal names the field (`{ id =, signature_description =, severity =
-- "IMPACT_SEVERITY_INFO"|"_LOW"|"_MEDIUM"|"_HIGH", rule = }`, sorted by id,
-- each id once, from its most severe finding).  Neither is part of the
-- behash.
-- @tparam table s a summary
-- @tparam table v a judgement
-- @treturn table s
function M.judged(s, v)
	local best = {}
	for _, f in ipairs(v.reasons or {}) do
		for _, id in ipairs(f.attack or {}) do
			if not best[id] or (f.severity or 0) > (best[id].severity or 0) then best[id] = f end
		end
	end
	local list = {}
	for _, id in ipairs(keys(best)) do
		local f = best[id]
		list[#list + 1] = { id = id, signature_description = f.reason, severity = impact(f.severity or 0),
			rule = f.rule }
	end
	s.verdicts = v.reasons or {}
	s.mitre_attack_techniques = list
	return s
end

--- The canonical form of a summary: one line per fact, `field=value`,
-- sorted and without duplicates; no pid, no time, no decoy's marker, no
-- traffic's bytes.  Two runs that behave alike give the same text.
-- @tparam table s a summary
-- @treturn string
function M.canonical(s)
	local set = {}
	-- the box's own command (the first exec) by a placeholder: two
	-- programs of other names that behave alike share the behash
	local cmd = s.command
	local function add(field, v)
		v = tostring(v)
		local after = cmd and v:sub(#cmd + 1, #cmd + 1)
		if cmd and v:sub(1, #cmd) == cmd and (after == "" or after == " " or after == ">") then
			v = "<command>" .. v:sub(#cmd + 1)
		end
		set[field .. "=" .. v] = true
	end
	-- each process as its chain of names from its root: `a>b`
	local function walk(list, above)
		for _, p in ipairs(list or {}) do
			local name = p.fork and p.name .. " (fork)" or p.name
			local chain = above and above .. ">" .. name or name
			add("processes_tree", chain)
			walk(p.children, chain)
		end
	end
	walk(s.processes_tree)
	for _, f in ipairs { "files_opened", "files_written", "files_deleted",
		"files_attribute_changed", "memory_files", "command_executions", "processes_created",
		"signals_observed", "unix_sockets", "calls_highlighted", "tags" } do
		for _, v in ipairs(s[f] or {}) do add(f, v) end
	end
	for _, f in ipairs(s.files_dropped or {}) do
		add("files_dropped", ("%s %s %s"):format(f.path, f.mode or "memfd", f.sha256 or "-"))
	end
	for _, d in ipairs(s.dns_lookups or {}) do
		add("dns_lookups", d.hostname .. " " .. concat(d.resolved_ips or {}, ","))
	end
	for _, t in ipairs(s.ip_traffic or {}) do
		add("ip_traffic", ("%s %s %s"):format(t.transport_layer_protocol, t.destination_ip,
			port_text(t.destination_port)))
	end
	local lines = keys(set)
	return "sbxlua-behaviour-v1\n" .. concat(lines, "\n") .. "\n"
end

--- The behaviour hash: `sha256:` and the SHA-256 of `M.canonical(s)`.
-- @tparam table s a summary
-- @treturn string
function M.behash(s)
	argcheck(s, "table", 1, "behash")
	return "sha256:" .. core.sha256(M.canonical(s))
end

-- one entry of a field, as one line of text
local function entry_text(field, v)
	if type(v) ~= "table" then return tostring(v) end
	if field == "files_dropped" then
		return ("%s (%s, %d B, sha256:%s)"):format(v.path, v.mode or "memfd", v.size or 0, v.sha256 or "-")
	elseif field == "dns_lookups" then
		local ips = concat(v.resolved_ips or {}, ",")
		return v.hostname .. " -> " .. (ips ~= "" and ips or "NXDOMAIN")
	elseif field == "ip_traffic" then
		return ("%s %s:%s%s"):format(v.transport_layer_protocol, v.destination_ip,
			port_text(v.destination_port), v.answer and v.answer ~= "allow" and " (" .. v.answer .. ")" or "")
	elseif field == "scripts_run" then
		return ("%s (%s, %d B, sha256:%s%s)"):format(v.source, v.language, math.tointeger(v.size) or 0,
			v.sha256 or "-", v.cut and ", cut" or "")
	elseif field == "http_conversations" then
		return ("%s %s"):format(v.method, v.url)
	elseif field == "mitre_attack_techniques" then
		return ("%s %s (%s)"):format(v.id, (tostring(v.severity):gsub("^IMPACT_SEVERITY_", ""):lower()),
			tostring(v.rule))
	elseif field == "verdicts" then
		return tostring(v.verdict or v.name or "?") .. (v.rule and " (" .. tostring(v.rule) .. ")" or "")
	end
	return tostring(v.path or v.name or "?")
end

--- The summary as aligned text: one line per entry, the field's name
-- padded to one column, `-` for an empty field, the behash last.  No
-- pid, time or marker: the same behaviour gives the same bytes (a process
-- of the tree is marked `(fork)` when it executed nothing, `(ran on)` when
-- it was alive as the command ended).  A newline
-- in an entry (a file's name, an argument: the program chooses them) is
-- written `\n` and every other control byte or byte past ASCII `\xHH`, so
-- an entry cannot start a line of its own (a forged `sandbox: exit 0`).
-- @tparam table s a summary
-- @treturn string
function M.text(s)
	argcheck(s, "table", 1, "text")
	local width = #"behash"
	for _, f in ipairs(M.FIELDS) do width = math.max(width, #f) end
	local out = {}
	local function line(name, v)
		out[#out + 1] = ("%-" .. width .. "s  %s\n"):format(name, (tostring(v):gsub("\n", "\\n")))
	end
	for _, f in ipairs(M.FIELDS) do
		local list = s[f] or {}
		if f == "processes_tree" then
			local rows = {}
			local function walk(l, depth)
				for _, p in ipairs(l or {}) do
					rows[#rows + 1] = ("  "):rep(depth) .. tostring(p.name)
						.. (p.fork and " (fork)" or "") .. (p.outlived and " (ran on)" or "")
					walk(p.children, depth + 1)
				end
			end
			walk(list, 0)
			list = rows
		end
		if #list == 0 then line(f, "-") end
		for i, v in ipairs(list) do line(i == 1 and f or "", entry_text(f, v)) end
	end
	local sl = s.sleeps_skipped
	if sl then
		line("sleeps_skipped", ("%g s in %d call%s"):format(sl.seconds, sl.calls, sl.calls == 1 and "" or "s"))
	end
	line("behash", s.behash or M.behash(s))
	return (concat(out):gsub("[\0-\9\11-\31\127-\255]", function(c)
		return ("\\x%02x"):format(c:byte())
	end))
end

return M
