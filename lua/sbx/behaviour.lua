--- sbx.behaviour: one run's behaviour summary, its fields named as in
-- VirusTotal's file-behaviour object, the `behash` over its canonical
-- form, and the aligned text `run.lua --behaviour` prints.
-- The summary is built from the structured result (`sbx.report.result`,
-- with the sink's fields of `sbx.sink.json`): the explain channel's
-- events, the written files and the sink's records.  See
-- docs/behaviour.md for what each field can show today.
-- @module sbx.behaviour
local core = require "sbx.core"

local M = {}

local sort, concat = table.sort, table.concat

--- The fields of a summary, in the order the text prints them.
M.FIELDS = { "files_opened", "files_written", "files_deleted", "files_attribute_changed",
	"files_dropped", "command_executions", "processes_created", "processes_tree",
	"dns_lookups", "ip_traffic", "calls_highlighted", "tags", "verdicts" }

local WRITE = 1 | 2 | 64 | 512 -- O_WRONLY, O_RDWR, O_CREAT, O_TRUNC

-- a port as digits (a JSON round trip makes 4444 a float)
local function port_text(p)
	local n = math.tointeger(tonumber(p))
	return n and ("%d"):format(n) or "-"
end

-- a sorted list of a set's keys
local function keys(set)
	local out = {}
	for k in pairs(set) do out[#out + 1] = k end
	sort(out)
	return out
end

local function refused(e)
	return e.answer == "deny" or e.answer == "stop"
end

local function call_of(e)
	return e.syscall or e.kind
end

-- host:port from an event's address (a string, or a table with ip/port)
local function split_addr(a)
	if type(a) ~= "string" then return nil end
	local ip, port = a:match("^%[?([^%]]*)%]?:(%d+)$")
	if not ip then return a, nil end
	return ip, tonumber(port)
end

--- The behaviour summary of one run.
-- @tparam table res the structured result (`sbx.report.result`, with
--  `sbx.sink.json`'s fields when the run had the sink)
-- @treturn table the summary; `behash` is `sha256:` and 64 hex digits;
--  `command` the box's own command (the first exec event's path), if seen
function M.summary(res)
	if type(res) ~= "table" then
		error(("bad argument #1 to 'summary' (table expected, got %s)"):format(type(res)), 2)
	end
	local opened, written, execs, created, calls, tags = {}, {}, {}, {}, {}, {}
	local deleted, changed = {}, {}
	-- the tree: a pid's first image names it; a pid first seen at an exec
	-- after a clone event is that clone's caller's child (the events carry
	-- no parent: the nearest clone not yet matched is taken for it)
	local traffic, nodes, roots, clones, command = {}, {}, {}, {}, nil
	local function node(pid, name, parent)
		local n = nodes[pid]
		if n then return n end
		n = { process_id = tostring(pid), name = name or "?", children = {} }
		nodes[pid] = n
		local p = parent and nodes[parent]
		if p then p.children[#p.children + 1] = n else roots[#roots + 1] = n end
		return n
	end
	for _, e in ipairs(res.events or {}) do
		local k = e.kind
		if k == "open" and type(e.path) == "string" then
			opened[e.path] = true
			if math.type(e.flags) == "integer" and e.flags & WRITE ~= 0 then written[e.path] = true end
		elseif k == "delete" and type(e.path) == "string" then
			deleted[e.path] = true
		elseif k == "rename" and type(e.path) == "string" then
			-- the old name is gone, the new one written
			deleted[e.path] = true
			if type(e.to) == "string" then written[e.to] = true end
		elseif k == "attribute" and type(e.path) == "string" then
			changed[e.path] = true
		elseif k == "exec" then
			local argv = type(e.argv) == "table" and e.argv or { e.path }
			local line = concat(argv, " ")
			execs[#execs + 1] = line
			command = command or e.path or argv[1]
			created[e.path or argv[1] or "?"] = true
			if e.pid and not nodes[e.pid] then
				node(e.pid, e.path or argv[1], table.remove(clones, 1))
			end
		elseif (k == "connect" or k == "send") and e.addr then
			local ip, port = split_addr(e.addr)
			if ip then
				local proto = k == "send" and "udp" or "tcp"
				traffic[("%s %s %s"):format(proto, ip, port_text(port))] = {
					transport_layer_protocol = proto,
					destination_ip = ip, destination_port = port, answer = e.answer }
			end
		end
		if refused(e) then
			calls[call_of(e)] = true
			tags.refused_calls = true
		end
		if k == "ptrace" then calls.ptrace, tags.ptrace = true, true end
		if k == "clone" and e.pid and e.answer == "allow" then clones[#clones + 1] = e.pid end
		if k == "clone" and e.namespaces then calls[call_of(e)], tags.namespaces = true, true end
		if k == "killed" and e.cause == "refused" then tags.refused_calls = true end
	end
	for _, t in ipairs(res.ip_traffic or {}) do
		local key = ("%s %s %s"):format(t.protocol, t.address, port_text(t.port))
		local entry = traffic[key] or { transport_layer_protocol = t.protocol,
			destination_ip = t.address, destination_port = t.port }
		entry.bytes = (entry.bytes or 0) + (t.bytes or 0)
		traffic[key] = entry
	end
	local dns = {}
	for _, d in ipairs(res.dns_lookups or {}) do
		local entry = dns[d.hostname] or { hostname = d.hostname, resolved_ips = {} }
		if d.answer and d.answer ~= "NXDOMAIN" and d.answer ~= "none" then
			entry.resolved_ips[#entry.resolved_ips + 1] = d.answer
		end
		dns[d.hostname] = entry
	end
	local dropped = {}
	for _, f in ipairs(res.files_dropped or {}) do
		dropped[#dropped + 1] = { path = f.path, size = f.size, mode = f.mode, sha256 = f.sha256 }
		written[f.path] = true
	end
	sort(dropped, function(a, b) return a.path < b.path end)
	for _, f in ipairs(res.files or {}) do
		if f.type == "link" and not f.decoy then written[f.path] = true end
		if f.decoy and f.markers and #f.markers > 0 and f.sha256 == nil then tags.decoy_changed = true end
	end
	for _, d in ipairs(res.decoys or {}) do
		if opened[d.path] then tags.decoy_read = true end
	end
	for _, t in pairs(traffic) do
		if t.bytes then tags.network = true end
	end
	if next(dns) or next(traffic) then tags.network = true end
	if #dropped > 0 then tags.dropper = true end
	if #execs > 0 then tags.exec = true end
	-- the processes as far as the events go: the command, then each
	-- process an exec event or a notable death names, by pid
	for _, d in ipairs((res.deaths or {}).notable or {}) do
		if d.pid and not nodes[d.pid] then node(d.pid, d.command) end
	end
	-- children by name: the text and the JSON do not follow the order
	-- the calls happened to come in
	local function by_name(list)
		sort(list, function(a, b) return a.name < b.name end)
		for _, n in ipairs(list) do by_name(n.children) end
	end
	by_name(roots)
	local ptree = roots
	local dns_list, traffic_list = {}, {}
	for _, h in ipairs(keys(dns)) do
		sort(dns[h].resolved_ips)
		dns_list[#dns_list + 1] = dns[h]
	end
	for _, k in ipairs(keys(traffic)) do traffic_list[#traffic_list + 1] = traffic[k] end
	sort(execs)
	local s = {
		files_opened = keys(opened),
		files_written = keys(written),
		files_deleted = keys(deleted),
		files_attribute_changed = keys(changed),
		files_dropped = dropped,
		command_executions = execs,
		processes_created = keys(created),
		processes_tree = ptree,
		dns_lookups = dns_list,
		ip_traffic = traffic_list,
		calls_highlighted = keys(calls),
		tags = keys(tags),
		verdicts = {},
		command = command,
	}
	s.behash = M.behash(s)
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
			local chain = above and above .. ">" .. p.name or p.name
			add("processes_tree", chain)
			walk(p.children, chain)
		end
	end
	walk(s.processes_tree)
	for _, f in ipairs { "files_opened", "files_written", "files_deleted",
		"files_attribute_changed", "command_executions", "processes_created",
		"calls_highlighted", "tags" } do
		for _, v in ipairs(s[f] or {}) do add(f, v) end
	end
	for _, f in ipairs(s.files_dropped or {}) do
		add("files_dropped", ("%s %s %s"):format(f.path, f.mode, f.sha256 or "-"))
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
	if type(s) ~= "table" then
		error(("bad argument #1 to 'behash' (table expected, got %s)"):format(type(s)), 2)
	end
	return "sha256:" .. core.sha256(M.canonical(s))
end

-- one entry of a field, as one line of text
local function entry_text(field, v)
	if type(v) ~= "table" then return tostring(v) end
	if field == "files_dropped" then
		return ("%s (%s, %d B, sha256:%s)"):format(v.path, v.mode, v.size or 0, v.sha256 or "-")
	elseif field == "dns_lookups" then
		local ips = concat(v.resolved_ips or {}, ",")
		return v.hostname .. " -> " .. (ips ~= "" and ips or "NXDOMAIN")
	elseif field == "ip_traffic" then
		return ("%s %s:%s%s"):format(v.transport_layer_protocol, v.destination_ip,
			port_text(v.destination_port), v.answer and v.answer ~= "allow" and " (" .. v.answer .. ")" or "")
	elseif field == "verdicts" then
		return tostring(v.verdict or v.name or "?")
	end
	return tostring(v.path or v.name or "?")
end

--- The summary as aligned text: one line per entry, the field's name
-- padded to one column, `-` for an empty field, the behash last.  No
-- pid, time or marker: the same behaviour gives the same bytes.
-- @tparam table s a summary
-- @treturn string
function M.text(s)
	if type(s) ~= "table" then
		error(("bad argument #1 to 'text' (table expected, got %s)"):format(type(s)), 2)
	end
	local width = #"behash"
	for _, f in ipairs(M.FIELDS) do width = math.max(width, #f) end
	local out = {}
	local function line(name, v)
		out[#out + 1] = ("%-" .. width .. "s  %s\n"):format(name, v)
	end
	for _, f in ipairs(M.FIELDS) do
		local list = s[f] or {}
		if f == "processes_tree" then
			local rows = {}
			local function walk(l, depth)
				for _, p in ipairs(l or {}) do
					rows[#rows + 1] = ("  "):rep(depth) .. tostring(p.name)
					walk(p.children, depth + 1)
				end
			end
			walk(list, 0)
			list = rows
		end
		if #list == 0 then line(f, "-") end
		for i, v in ipairs(list) do line(i == 1 and f or "", entry_text(f, v)) end
	end
	line("behash", s.behash or M.behash(s))
	return (concat(out):gsub("[\0-\9\11-\31\127-\255]", function(c)
		return ("\\x%02x"):format(c:byte())
	end))
end

return M
