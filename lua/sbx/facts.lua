-- SPDX-License-Identifier: MIT
--- sbx.facts: the evidence of one run, gathered once for the verdict
-- rules (`sbx.verdict`) and the Sigma rules (`sbx.sigma`): what each
-- process executed, opened, wrote, deleted, renamed, changed, connected
-- to and resolved, with the image (the executable) of the process that
-- did it.  Built from the structured result (`sbx.report.result`, with
-- the sink's records and the behaviour summary); a list a run has no
-- events for is empty.
--
-- A process's image is the path of its last exec; a process that has not
-- executed anything yet runs its parent's image (a fork copies it).  Its
-- parent is the `ppid` the supervisor read from the kernel when it first
-- saw the process (`/proc/PID/status`), never a guess.
-- @module sbx.facts
local rulekit = require "sbx.rulekit"
local argcheck = require("sbx._arg").check

local M = {}

local WRITE = 1 | 2 | 64 | 512 -- O_WRONLY, O_RDWR, O_CREAT, O_TRUNC
local CREATE = 64 -- O_CREAT

-- what a mode in octal text or a number is, as an integer
local function mode_of(m)
	if type(m) == "string" then return math.tointeger(tonumber(m, 8)) end
	return math.tointeger(m)
end

--- Host and port of an event's address: "1.2.3.4:80", "[::1]:80" (an
-- address with no port: itself, nil; not a string: nil).
-- @param a
function M.split_addr(a)
	if type(a) ~= "string" then return nil end
	local ip, port = a:match("^%[?([^%]]*)%]?:(%d+)$")
	if not ip then return a, nil end
	return ip, math.tointeger(tonumber(port))
end

-- the box's own loopback: not the network
local function is_loopback(ip)
	return type(ip) == "string" and (ip:find("^127%.") ~= nil or ip == "::1" or ip:find("^::ffff:127%.") ~= nil)
end

-- The processes: images and parents by pid, followed through the events
-- in their order.
local function new_procs()
	local P = { image = {}, cmdline = {}, parent = {}, argv0 = {} }
	function P.seen(e)
		if math.type(e.pid) == "integer" or math.type(e.pid) == "float" then
			local pid = math.tointeger(e.pid)
			local ppid = math.tointeger(e.ppid)
			if pid and ppid and ppid > 0 and P.parent[pid] == nil then P.parent[pid] = ppid end
			return pid
		end
		return nil
	end
	-- the image a pid runs now: its own exec's, else its parent's
	function P.image_of(pid)
		local depth = 0
		while pid and depth < 64 do
			if P.image[pid] then return P.image[pid], P.cmdline[pid] end
			pid, depth = P.parent[pid], depth + 1
		end
		return nil
	end
	return P
end

local function add(list, v) list[#list + 1] = v end

-- the language runtime a process runs, by its image's name or the
-- library it reads (a #! script's image is the script itself)
local RUNTIMES = { { "python", "^python", "^/usr/l?o?c?a?l?/?lib/python%d" },
	{ "perl", "^perl", "^/usr/share/perl" }, { "perl", nil, "^/usr/lib/x86_64%-linux%-gnu/perl" },
	{ "ruby", "^ruby", "^/usr/lib/ruby/" }, { "node", "^node", "/node_modules/" },
	{ "php", "^php", "^/usr/share/php/" } }

local function runtime_of(name, path)
	for _, r in ipairs(RUNTIMES) do
		if (name and r[2] and name:find(r[2])) or (path and path:find(r[3])) then return r[1] end
	end
	return nil
end

-- an exec event: the command line, the image before and after
local function on_exec(F, P, e, pid)
	local argv = type(e.argv) == "table" and e.argv or { e.path }
	-- a file not there or not executable (a failed PATH candidate): an
	-- attempt, never a process or a command executed; the rules still
	-- see what the program tried to run (in execs, marked `attempt`)
	local attempt = type(e.result) == "string" and e.result ~= "found"
	if attempt then add(F.exec_attempts, { pid = pid, path = e.path, argv = argv, result = e.result }) end
	local ppid = pid and P.parent[pid]
	local pimage, pcmd = P.image_of(ppid)
	local x = { pid = pid, ppid = ppid, image = e.path or argv[1], argv = argv,
		cmdline = table.concat(argv, " "), argv_cut = e.argv_cut,
		parent_image = pimage, parent_cmdline = pcmd, cwd = e.cwd, answer = e.answer,
		sha256 = e.sha256, size = e.size, memfd = e.memfd, result = e.result, attempt = attempt or nil }
	add(F.execs, x)
	if pid and e.answer ~= "deny" and e.answer ~= "stop" and not attempt then
		P.image[pid], P.cmdline[pid], P.argv0[pid] = x.image, x.cmdline, argv[1]
		F.runtime[pid] = runtime_of(tostring(x.image):match("[^/]*$"), nil)
	end
end

-- a written path, once, with how it was written
local function wrote(F, path, how, image)
	if type(path) ~= "string" or F.written_set[path] then return end
	F.written_set[path] = true
	add(F.written, { path = path, how = how, image = image })
end

-- ---- What Linux malware families do (bots, miners, worms, lockers) ----
-- Their steps that leave an event of their own: a walk of other
-- processes' /proc entries, a process renaming itself, a raw socket.

-- an open of /proc/N/WHAT (N a pid of the box, not the opener's own):
-- a process walk's step, as a bot's killer or a miner looking for rivals
-- takes it; the path is the one the supervisor read, never followed
local function on_proc_read(F, e, pid, image)
	local n, what = e.path:match("^/proc/(%d+)/([%w_]+)$")
	if not n then n, what = e.path:match("^/proc/(%d+)/?$"), "" end
	n = math.tointeger(tonumber(n))
	if n and n ~= pid then
		add(F.proc_reads, { pid = n, what = what, by = pid, image = image })
	end
end

-- a watched call of no kind of its own: prctl(PR_SET_NAME) (`path` the
-- name set, `to` argv[0] as the memory held it then), a raw socket
local function on_task_call(F, P, e, pid, image)
	if e.syscall == "prctl" and type(e.path) == "string" then
		add(F.renames, { pid = pid, name = e.path, argv0 = type(e.to) == "string" and e.to or nil,
			exec_argv0 = pid and P.argv0[pid], image = image })
	elseif e.syscall == "socket" and e.protocol == "raw" then
		add(F.raw_sockets, { family = e.family, answer = e.answer, errno = e.errno, image = image, pid = pid })
	elseif type(e.syscall) == "string" and e.answer == "allow" then
		-- a call recorded and let through (sysinfo, mknod), by its name
		add(F.calls, { call = e.syscall, image = image, pid = pid, a0 = math.tointeger(e.a0),
			path = type(e.path) == "string" and e.path or nil, mode = math.tointeger(e.mode) })
	end
end

local function on_event(F, P, e)
	local k, pid = e.kind, P.seen(e)
	if k == "exec" then return on_exec(F, P, e, pid) end
	local image = P.image_of(pid)
	if k == "syscall" then on_task_call(F, P, e, pid, image) end
	if k == "open" and type(e.path) == "string" and e.path:find("^/proc/%d") then
		on_proc_read(F, e, pid, image)
	end
	if k == "open" and type(e.path) == "string" then
		local flags = math.tointeger(e.flags) or 0
		if pid and not F.runtime[pid] then F.runtime[pid] = runtime_of(nil, e.path) end
		add(F.opens, { path = e.path, flags = flags, write = flags & WRITE ~= 0,
			create = flags & CREATE ~= 0, answer = e.answer, image = image, pid = pid })
		if flags & WRITE ~= 0 and e.answer == "allow" then wrote(F, e.path, "open", image) end
	elseif k == "delete" and type(e.path) == "string" then
		add(F.deleted, { path = e.path, call = e.syscall, answer = e.answer, image = image })
	elseif k == "rename" and type(e.path) == "string" then
		add(F.renamed, { from = e.path, to = e.to, answer = e.answer, image = image })
		if e.answer == "allow" then wrote(F, e.to, "rename", image) end
	elseif k == "attribute" and type(e.path) == "string" then
		add(F.changed, { path = e.path, call = e.syscall, answer = e.answer, image = image })
	elseif (k == "connect" or k == "send" or k == "bind") and e.addr then
		if e.family == "inet" or e.family == "inet6" then
			local ip, port = M.split_addr(e.addr)
			add(k == "bind" and F.binds or F.connects, { ip = ip, port = port, loopback = is_loopback(ip),
				protocol = e.protocol or "ip", family = e.family, call = e.syscall,
				answer = e.answer, image = image, pid = pid, count = math.tointeger(e.count) or 1 })
		elseif e.family == "unix" then
			add(F.unix, { path = e.addr, call = e.syscall, answer = e.answer, image = image })
		end
	elseif k == "memfd" then
		add(F.memfds, { name = e.path, answer = e.answer, image = image })
	elseif k == "signal" then
		add(F.signals, { signal = e.signal, signame = e.signame, target = e.target,
			answer = e.answer, image = image })
	elseif k == "protect" or k == "mmap" then
		add(F.protects, { call = e.syscall, prot = e.prot, size = e.size, image = image })
	elseif k == "ptrace" then
		add(F.ptraces, { request = e.flags, answer = e.answer, image = image })
	elseif k == "clone" and e.namespaces then
		add(F.namespaces, { call = e.syscall, flags = e.flags, answer = e.answer, image = image })
	elseif k == "killed" then
		add(F.killed, { cause = e.cause, limit = e.limit, signal = e.signal })
	elseif k == "note" and e.cause == "decoy" then
		add(F.decoys_leaked, { decoy = e.decoy, where = e.where, path = e.path })
	end
	-- a refusal: the analysis box's answer, or the explain channel's event
	if e.answer == "deny" or e.answer == "stop" or k == "refused" then
		add(F.refused, { call = e.syscall or k, errno = e.errno, path = e.path, image = image,
			a0 = math.tointeger(e.a0) })
	end
end

-- the sink's records: DNS lookups and traffic; a connect's hostname is the
-- name a lookup resolved to its address
local function on_sink(F, res)
	local names, sink = {}, res.sink or {}
	for _, d in ipairs(sink.dns or {}) do
		if type(d.hostname) == "string" then
			add(F.dns, { hostname = d.hostname, type = d.type, answer = d.answer })
			if type(d.answer) == "string" then names[d.answer] = names[d.answer] or d.hostname end
		end
	end
	for _, t in ipairs(sink.traffic or {}) do
		add(F.traffic, { protocol = t.protocol, ip = t.address, port = math.tointeger(t.port),
			bytes = t.bytes, hostname = names[t.address], loopback = is_loopback(t.address),
			first_bytes = type(t.first_bytes) == "string" and t.first_bytes or nil })
	end
	for _, c in ipairs(F.connects) do c.hostname = names[c.ip] end
end

-- the files the box left: dropped (path, mode, size, sha256, type, mime),
-- executables by mode
local function on_files(F, res)
	for _, f in ipairs(res.files_dropped or {}) do
		local mode = mode_of(f.mode)
		add(F.dropped, { path = f.path, mode = mode, size = f.size, sha256 = f.sha256,
			type = f.type, mime = f.mime, executable = mode ~= nil and mode & 73 ~= 0 })
		wrote(F, f.path, "dropped", nil)
	end
	for _, f in ipairs(res.files or {}) do
		if f.type == "link" and not f.decoy then
			add(F.links, { path = f.path, target = f.target })
			wrote(F, f.path, "link", nil)
		end
	end
	for _, d in ipairs(res.decoys or {}) do add(F.decoys, { name = d.name, path = d.path }) end
end

local function count_of(v)
	local n = math.tointeger(v)
	return n and n > 0 and n or nil
end

-- The evidence past a budget, in one list: `{ what =, count =, ... }`
-- for the explain channel's events (a summary per kind and directory,
-- with its first and last path; those lost past the summaries, by kind),
-- the sink's records (`sink_dropped`, and by protocol where the result
-- has them) and the files left uninspected (`inspect_skipped`).  The
-- first and last events of each summary are fed to the facts as events.
local function on_overflow(F, P, run)
	local O = F.overflow
	for _, e in ipairs(type(run.events) == "table" and run.events or {}) do
		if type(e) == "table" and e.kind == "dropped" then
			for _, a in ipairs(type(e.summaries) == "table" and e.summaries or {}) do
				local first, last = a.first or {}, a.last or a.first or {}
				add(O, { what = "events", kind = a.kind, answer = a.answer, dir = a.dir,
					count = count_of(a.count) or 1, summarised = true,
					first = first.path or first.addr, last = last.path or last.addr })
				if type(a.first) == "table" then on_event(F, P, a.first) end
				if type(a.last) == "table" then on_event(F, P, a.last) end
			end
			local lost = type(e.lost) == "table" and e.lost or {}
			local kinds = {}
			for k in pairs(lost) do kinds[#kinds + 1] = tostring(k) end
			table.sort(kinds)
			for _, k in ipairs(kinds) do
				if count_of(lost[k]) then add(O, { what = "events", kind = k, count = count_of(lost[k]) }) end
			end
		end
	end
	-- the sink's by protocol where the result has them, else its total
	-- (the total is their sum: never both)
	local sink = type(run.sink) == "table" and run.sink or {}
	local by = false
	for _, p in ipairs { "dns", "tcp", "udp", "http" } do
		local v = run["sink_dropped_" .. p]
		if v == nil then v = sink["dropped_" .. p] end
		by = by or v ~= nil
		if count_of(v) then add(O, { what = "sink " .. p, count = count_of(v) }) end
	end
	local n = not by and (count_of(run.sink_dropped) or count_of(sink.dropped))
	if n then add(O, { what = "sink", count = n }) end
	local skipped = run.inspect_skipped
	if type(skipped) == "table" then skipped = skipped.count or #skipped end
	n = count_of(skipped)
	if n then add(O, { what = "inspection", count = n }) end
end

--- The checks a program makes to tell a sandbox, a container, a virtual
-- machine or a debugger from an ordinary host (ATT&CK T1497.001, System
-- Checks; VirusTotal's tag `detect_debug_environment`): Lua patterns over
-- a path read (`read`), the command as run (`exec`: base name, a space,
-- the arguments) and the whole command line (`cmdline`: a `grep
-- hypervisor /proc/cpuinfo` or `grep TracerPid /proc/self/status`, whose
-- files alone every system tool reads), and the programs (`not_by`, base
-- names) whose reads are their own job: process listers read every
-- process's cgroup and status, `df` and `findmnt` the mount table, lscpu
-- the DMI table (to name the hypervisor it prints).  The cpuid
-- instruction's hypervisor bit is out of reach: no system call.
M.ENVIRONMENT_CHECKS = {
	read = { "^/proc/1/cgroup$", "^/proc/1/sched$", "^/proc/1/mountinfo$", "^/proc/1/environ$",
		"^/proc/self/mountinfo$", "^/proc/thread%-self/mountinfo$", "^/proc/%d+/mountinfo$",
		"^/%.dockerenv$", "^/run/%.containerenv$", "^/sys/class/dmi/", "^/sys/devices/virtual/dmi/",
		"^/sys/firmware/dmi/", "^/proc/scsi/scsi$", "^/sys/hypervisor/", "^/proc/xen",
		"^/proc/vz", "^/dev/vboxguest", "^/dev/vboxuser", "^/proc/sysinfo$" },
	exec = { "^systemd%-detect%-virt", "^virt%-what", "^dmidecode", "^imvirt" },
	cmdline = { "hypervisor", "TracerPid" },
	not_by = { ps = true, pgrep = true, pkill = true, top = true, htop = true, pidof = true,
		pstree = true, systemctl = true, ["systemd-cgls"] = true, df = true, findmnt = true,
		mount = true, umount = true, lsblk = true, lscpu = true, ["systemd-detect-virt"] = true,
		["virt-what"] = true },
}


-- The environment checks of a run's facts (`M.ENVIRONMENT_CHECKS`), in
-- the order they happened: `{ what = "read /proc/1/cgroup", image = }`.
local function environment_checks(F)
	local C, out, seen = M.ENVIRONMENT_CHECKS, {}, {}
	local function note(what, image)
		if seen[what] then return end
		seen[what] = true
		out[#out + 1] = { what = what, image = image }
	end
	for _, x in ipairs(F.execs) do
		local command = rulekit.command(x)
		if rulekit.matches(command, C.exec) then
			note("ran `" .. command .. "`", x.image)
		elseif type(x.cmdline) == "string" and rulekit.matches(x.cmdline, C.cmdline) then
			note("ran `" .. x.cmdline .. "`", x.image)
		end
	end
	for _, o in ipairs(F.opens) do
		if not o.write and not C.not_by[rulekit.basename(o.image)] and rulekit.matches(o.path, C.read) then
			note("read " .. o.path, o.image)
		end
	end
	return out
end

-- ---- script text in logical lines (bounded: a script's text is at most
-- 256 KiB, a run's 4 MiB; core/super/script.h) ----

-- a here-document's word on a shell line (`<<EOF`, `<<-'EOF'`), or nil
local function heredoc_word(line)
	local w = line:match("<<%-?%s*'([^']+)'") or line:match('<<%-?%s*"([^"]+)"')
		or line:match("<<%-?%s*\\?([%w_]+)")
	return w
end

-- a shell text's logical lines: backslash-newline joined, split at `;`
-- and newlines outside quotes; a quoted newline stays in its line; a
-- here-document's body kept as its own lines, as text (never split)
local function shell_lines(text, out)
	local cur, i, n, q = {}, 1, #text, nil
	local heredoc
	local function flush()
		local l = table.concat(cur):match("^%s*(.-)%s*$")
		if l ~= "" then out[#out + 1] = l end
		cur = {}
	end
	while i <= n do
		if heredoc then
			local e = text:find("\n", i, true) or n + 1
			local l = text:sub(i, e - 1)
			if l:match("^%s*(.-)%s*$") == heredoc then heredoc = nil end
			if l ~= "" then out[#out + 1] = l end
			i = e + 1
		else
			local j = text:find(q == "'" and "'" or q == '"' and '["\\]' or "[\\'\";\n#]", i)
			if not j then cur[#cur + 1] = text:sub(i); break end
			cur[#cur + 1] = text:sub(i, j - 1)
			local c = text:sub(j, j)
			i = j + 1
			if c == "#" and (j == 1 or text:sub(j - 1, j - 1):find("[%s;&|()]")) then
				-- a comment, to the end of its line: a line of its own
				local e = text:find("\n", j, true) or n + 1
				local line = table.concat(cur)
				flush()
				out[#out + 1] = text:sub(j, e - 1)
				if e <= n then heredoc = heredoc_word(line) end
				i = e + 1
			elseif c == "#" then
				cur[#cur + 1] = c
			elseif c == "\\" then
				local nx = text:sub(i, i)
				if nx ~= "\n" then cur[#cur + 1] = c .. nx end
				i = i + 1
			elseif c == "'" or c == '"' then
				cur[#cur + 1] = c
				if q == c then q = nil elseif not q then q = c end
			else -- `;` or a newline outside quotes
				local line = table.concat(cur)
				flush()
				if c == "\n" then heredoc = heredoc_word(line) end
			end
		end
	end
	flush()
end

-- another language's logical lines: physical lines, backslash-newline
-- joined
local function plain_lines(text, out)
	text = text:gsub("\\\n", "")
	for l in text:gmatch("[^\n]+") do
		l = l:match("^%s*(.-)%s*$")
		if l ~= "" then out[#out + 1] = l end
	end
end

--- A script's text as its logical lines (see `M.of`'s `scripts`).
-- @tparam string text the script
-- @tparam string language `sh`, `python`, `perl`, `ruby`, `php`, `node` or `awk`
-- @treturn table the lines, in order
function M.lines(text, language)
	argcheck(text, "string", 1, "lines")
	argcheck(language, "string", 2, "lines")
	local out = {}
	if language == "sh" then shell_lines(text, out) else plain_lines(text, out) end
	return out
end

-- the host's own scripts: under the box's read-only system places, which
-- the box cannot write (a tool of the host that is a script: ldd, zgrep)
local HOST_SCRIPTS = { "^/usr/", "^/bin/", "^/sbin/", "^/lib/", "^/lib64/" }

-- the lines of the texts split last, by language and sha256: a run's
-- facts are gathered more than once (the verdict, the behaviour, Sigma),
-- its scripts split once; emptied past LINES_KEPT texts
local LINES_KEPT, lines_cache, lines_n = 64, {}, 0
local function lines_of(s)
	if type(s.sha256) ~= "string" then return M.lines(s.text, tostring(s.language)) end
	local k = tostring(s.language) .. ":" .. s.sha256 .. ":" .. #s.text
	local l = lines_cache[k]
	if not l then
		if lines_n >= LINES_KEPT then lines_cache, lines_n = {}, 0 end
		l = M.lines(s.text, tostring(s.language))
		lines_cache[k], lines_n = l, lines_n + 1
	end
	return l
end

-- the scripts the interpreters ran, each with its logical lines, and
-- every line once more in one list for the rules (`script_lines`): the
-- box's own scripts' lines, a comment (`#`, `//`) left out
local function on_scripts(F, run)
	local list = type(run.scripts) == "table" and run.scripts or {}
	for _, s in ipairs(list) do
		-- a text seen before in the run: the entry `same` names holds it
		local held = type(s) == "table" and type(s.same) == "number" and list[math.tointeger(s.same) or 0]
		if type(held) == "table" and type(held.text) == "string" then
			s = setmetatable({ text = held.text }, { __index = s })
		end
		if type(s) == "table" and type(s.text) == "string" then
			local x = { pid = s.pid, image = s.image, language = s.language, source = s.source,
				sha256 = s.sha256, size = s.size, cut = s.cut == true,
				host = rulekit.matches(tostring(s.source), HOST_SCRIPTS),
				lines = lines_of(s) }
			add(F.scripts, x)
			for _, l in ipairs(x.host and {} or x.lines) do
				if not l:find("^#") and not l:find("^//") then
					add(F.script_lines, { text = l, image = x.image, pid = x.pid, source = x.source,
						language = x.language })
				end
			end
		end
	end
end

--- The facts of one run.
-- @tparam table run the structured result (`sbx.report.result`)
-- @treturn table lists `execs` ({pid, ppid, image, argv, cmdline,
--  parent_image, parent_cmdline, cwd, answer, sha256, result, attempt}:
--  every exec the program asked for, `attempt` when its file was not
--  there or not executable, which changed no process), `exec_attempts`
--  ({pid, path, argv, result}: those attempts alone, `result` the errno
--  name, such as a failed candidate of a PATH search), `opens` ({path,
--  flags, write, create, answer, image}), `written` ({path, how, image},
--  each path once), `deleted`, `renamed` ({from, to}), `changed` ({path,
--  call}), `connects` and `binds` ({ip, port, protocol, family, hostname,
--  answer, image, pid, loopback: the box's own 127/8 or ::1}), `unix` ({path}), `dns` ({hostname, type, answer}),
--  `traffic` (the sink's: {protocol, ip, port, bytes, hostname}), `dropped`
--  ({path, mode, size, sha256, executable}), `links`, `decoys`,
--  `decoys_leaked`, `memfds`, `signals`, `protects`, `ptraces`,
--  `namespaces`, `refused` ({call, errno, path, image, a0}), `calls`
--  (the other calls the profile records, let through: {call, image, pid,
--  a0}: sysinfo; mknod with its path and mode), `killed`;
--  `overflow` ({what = "events" (with kind, answer, dir, first and last
--  when summarised), "sink", "sink dns", "sink tcp", "sink udp", "sink
--  http" or "inspection", count}: the evidence past a budget; a
--  summary's first and last events are in the other lists too);
--  `runtime` (by pid: "python", "perl", "ruby", "node" or "php", from the
--  image's name or the library the process read); `scripts` (the
--  scripts the box's interpreters ran: {pid, image, language, source (a
--  path, "-c" or "stdin"), sha256, size, cut (the text holds its first
--  256 KiB only), host (a script of the host's own system places: /usr,
--  /bin, /sbin, /lib), lines (its logical lines, `M.lines`)}) and
--  `script_lines` (every line of the box's own scripts but comments:
--  {text, image, pid, source, language}); `scripts_over`, scripts past the run's budgets, not kept;
--  `environment_checks`
--  ({what, image}: the checks of `M.ENVIRONMENT_CHECKS` it made); and
--  `command`, the first exec's image.
--  What malware families do: `proc_reads` ({pid, what, by, image}: an
--  open of another process's /proc/PID/WHAT, `what` "" for the directory
--  itself), `renames` ({pid, name, argv0, exec_argv0, image}: a
--  prctl(PR_SET_NAME), argv[0] as the process's memory held it then and
--  as its exec gave it), `raw_sockets` ({family, answer, errno, image,
--  pid}); a connect's `count` (repeats folded into one event) and the
--  sink traffic's `first_bytes` (escaped as the report escapes them)
function M.of(run)
	argcheck(run, "table", 1, "of")
	local F = { written_set = {}, runtime = {}, overflow = {} }
	for _, l in ipairs { "execs", "exec_attempts", "opens", "written", "deleted", "renamed", "changed", "connects",
		"binds", "unix", "dns", "traffic", "dropped", "links", "decoys", "decoys_leaked", "memfds",
		"signals", "protects", "ptraces", "namespaces", "refused", "killed",
		"proc_reads", "renames", "raw_sockets", "calls", "scripts", "script_lines" } do
		F[l] = {}
	end
	local P = new_procs()
	for _, e in ipairs(type(run.events) == "table" and run.events or {}) do
		if type(e) == "table" then on_event(F, P, e) end
	end
	on_overflow(F, P, run)
	on_sink(F, run)
	on_files(F, run)
	on_scripts(F, run)
	F.written_set = nil
	F.scripts_over = math.tointeger(run.scripts_over) or 0
	F.environment_checks = environment_checks(F)
	F.command = F.execs[1] and F.execs[1].image
	return F
end

return M
