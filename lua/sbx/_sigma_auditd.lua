-- SPDX-License-Identifier: MIT
--- sbx._sigma_auditd: the records auditd would have written of a run,
-- made from its facts (`sbx.facts`), for Sigma's `service: auditd` rules
-- (private to lua/sbx; `sbx.sigma` documents the mapping).
--
-- auditd writes one event of several records per system call it audits;
-- here each record is an event of its own, as Sigma's rules read them:
--
-- * an exec: `SYSCALL` (`SYSCALL=execve`, `syscall` its number, `exe`
--   the image, `comm` its base name cut to 15 bytes, `success`, `pid`,
--   `ppid`), `EXECVE` (`argc`, `a0`..`aN` the argv), `CWD` (`cwd`), `PATH`
--   (`name` the image, `nametype=NORMAL`) and `PROCTITLE` (`proctitle`,
--   the command line, its NULs as spaces as `ausearch -i` shows it);
-- * an open: `SYSCALL` (`openat`: the C library's open) and `PATH`
--   (`nametype=CREATE` with `O_CREAT`, else `NORMAL`); a delete: its call
--   and `PATH` `DELETE`; a rename: its call, `PATH` `DELETE` (from) and
--   `CREATE` (to); an attribute change: its call and `PATH` `NORMAL`;
-- * a connect, send or bind: its call and `SOCKADDR` (`saddr` the
--   sockaddr in hexadecimal as auditd writes it, `saddr_fam`, `laddr`,
--   `lport`; a unix socket's `path`);
-- * the other recorded calls (memfd_create, kill, mprotect and mmap,
--   ptrace, clone and unshare with namespaces, sysinfo, mknod, and the refused calls no
--   other list holds, once per first argument, `a0` in hex as auditd
--   writes it): `SYSCALL`.
--
-- `key` is what the audit rules in the Sigma rule's
-- `logsource.definition` set: `-w PATH -p PERMS -k KEY` (PERMS of `rwxa`:
-- a read, write, exec, attribute change of PATH or below it) and `-a
-- always,exit -S CALL -k KEY` (`-F arch=` only); auditd writes it in the
-- `SYSCALL` record, and so does this.
-- @module sbx._sigma_auditd
local M = {}

--- The record types made.
M.TYPES = { "SYSCALL", "EXECVE", "PATH", "CWD", "PROCTITLE", "SOCKADDR" }

--- The fields of the records (and `a0`..`aN`).
M.FIELDS = { "type", "argc", "SYSCALL", "syscall", "success", "exe", "comm", "key", "pid", "ppid", "name",
	"nametype", "cwd", "proctitle", "saddr", "saddr_fam", "laddr", "lport", "path" }

local FIELD_SET, TYPE_SET = {}, {}
for _, f in ipairs(M.FIELDS) do FIELD_SET[f] = true end
for _, t in ipairs(M.TYPES) do TYPE_SET[t] = true end

--- Whether a field is one of the records'.
-- @tparam string f
-- @treturn boolean
function M.is_field(f) return FIELD_SET[f] == true or f:match("^a%d+$") ~= nil end

--- Whether a record type is made here (case-insensitive, as Sigma compares).
-- @tparam string t
-- @treturn boolean
function M.is_type(t) return TYPE_SET[t:upper()] == true end

-- what a record keeps for `key` and the evidence, out of the rules'
-- reach (a field's name cannot hold `|`)
M.OBJ, M.OP, M.TEXT = "|obj", "|op", "|text"

local number_of
local function syscall_number(name)
	if number_of == nil then
		local ok, core = pcall(require, "sbx.core")
		number_of = ok and type(core) == "table" and core.syscall_number or false
	end
	return number_of and type(name) == "string" and number_of(name) or nil
end

local function base(p)
	return type(p) == "string" and p:match("([^/]*)$") or nil
end

-- a record's text as auditd prints it (`ausearch -i`): type=T k=v ...
local function raw(r, keys)
	local out = { "type=" .. r.type }
	for _, k in ipairs(keys) do
		if r[k] ~= nil then out[#out + 1] = ("%s=%s"):format(k, tostring(r[k])) end
	end
	return table.concat(out, " ")
end

local SYSCALL_KEYS = { "SYSCALL", "syscall", "success", "a0", "pid", "ppid", "comm", "exe" }

-- a0: the call's first argument where the event holds it, in hex as
-- auditd writes it
local function syscall(out, call, image, answer, obj, op, pid, ppid, a0)
	local r = { type = "SYSCALL", SYSCALL = call, syscall = syscall_number(call), exe = image,
		comm = base(image) and base(image):sub(1, 15), pid = pid, ppid = ppid,
		a0 = math.type(a0) == "integer" and ("%x"):format(a0) or nil,
		success = (answer == "deny" or answer == "stop") and "no" or "yes", [M.OBJ] = obj, [M.OP] = op }
	r[M.TEXT] = raw(r, SYSCALL_KEYS)
	out[#out + 1] = r
end

local function path(out, name, nametype)
	if type(name) ~= "string" then return end
	local r = { type = "PATH", name = name, nametype = nametype }
	r[M.TEXT] = raw(r, { "name", "nametype" })
	out[#out + 1] = r
end

local function on_exec(out, x)
	local argv = type(x.argv) == "table" and x.argv or {}
	syscall(out, "execve", x.image, x.answer, x.image, "x", x.pid, x.ppid)
	local r = { type = "EXECVE", argc = #argv }
	for i, a in ipairs(argv) do r["a" .. (i - 1)] = a end
	r[M.TEXT] = x.cmdline
	out[#out + 1] = r
	if type(x.cwd) == "string" then out[#out + 1] = { type = "CWD", cwd = x.cwd, [M.TEXT] = "type=CWD cwd=" .. x.cwd } end
	path(out, x.image, "NORMAL")
	if type(x.cmdline) == "string" then
		out[#out + 1] = { type = "PROCTITLE", proctitle = x.cmdline, [M.TEXT] = x.cmdline }
	end
end

-- a sockaddr as auditd's hexadecimal: family (host order), port (network
-- order), the address, zeros to 16 bytes (IPv4) or the IPv6 layout
local function saddr_hex(c)
	local ip, port = c.ip, math.tointeger(c.port) or 0
	local b = {}
	if c.family == "inet" and type(ip) == "string" then
		for n in ip:gmatch("%d+") do b[#b + 1] = tonumber(n) & 255 end
		if #b ~= 4 then return nil end
		return ("0200%04X%02X%02X%02X%02X0000000000000000"):format(port, b[1], b[2], b[3], b[4])
	end
	return nil
end

local function on_socket(out, c, fam)
	syscall(out, c.call, c.image, c.answer, nil, nil, c.pid)
	local r = { type = "SOCKADDR", saddr_fam = fam, laddr = c.ip, lport = c.port, path = c.path }
	if fam ~= "local" then r.saddr = saddr_hex(c) end
	r[M.TEXT] = raw(r, { "saddr", "saddr_fam", "laddr", "lport", "path" })
	out[#out + 1] = r
end

-- the file calls: opens, deletes, renames, attribute changes
local function on_files(out, F, did)
	for _, o in ipairs(F.opens or {}) do
		syscall(out, "openat", o.image, o.answer, o.path, o.write and "w" or "r", o.pid)
		path(out, o.path, o.create and "CREATE" or "NORMAL")
		did["openat"] = true
	end
	for _, d in ipairs(F.deleted or {}) do
		syscall(out, d.call or "unlinkat", d.image, d.answer, d.path, "w")
		path(out, d.path, "DELETE")
		did[d.call or "unlinkat"] = true
	end
	for _, r in ipairs(F.renamed or {}) do
		syscall(out, "rename", r.image, r.answer, r.from, "w")
		path(out, r.from, "DELETE")
		path(out, r.to, "CREATE")
	end
	for _, c in ipairs(F.changed or {}) do
		syscall(out, c.call, c.image, c.answer, c.path, "a")
		path(out, c.path, "NORMAL")
		did[c.call or "?"] = true
	end
end

-- the other calls, named by their lists
local function on_calls(out, F, did)
	local lists = { { "memfds", "memfd_create" }, { "signals", "kill" }, { "protects" }, { "ptraces", "ptrace" },
		{ "namespaces" }, { "calls" } }
	for _, l in ipairs(lists) do
		for _, e in ipairs(F[l[1]] or {}) do
			local call = e.call or l[2]
			if call then
				syscall(out, call, e.image, e.answer)
				did[call] = true
			end
		end
	end
	-- a refused call once per first argument (syslog's read and its
	-- clear are two records)
	local seen = {}
	for _, e in ipairs(F.refused or {}) do
		local k = tostring(e.call) .. " " .. tostring(e.a0)
		if type(e.call) == "string" and not did[e.call] and not seen[k] then
			seen[k] = true
			syscall(out, e.call, e.image, "deny", e.path, nil, nil, nil, e.a0)
		end
	end
end

--- The records of a run's facts, in the order of their lists.
-- @tparam table F the facts (`sbx.facts.of`)
-- @treturn table a list of records (tables of fields)
function M.events(F)
	local out, did = {}, { execve = true, connect = true, bind = true, sendto = true, sendmsg = true }
	for _, x in ipairs(F.execs or {}) do on_exec(out, x) end
	on_files(out, F, did)
	for _, c in ipairs(F.connects or {}) do on_socket(out, c, c.family) end
	for _, c in ipairs(F.binds or {}) do on_socket(out, c, c.family) end
	for _, u in ipairs(F.unix or {}) do
		on_socket(out, { call = u.call, image = u.image, answer = u.answer, path = u.path }, "local")
	end
	on_calls(out, F, did)
	return out
end

---------------------------------------------------------------------------
-- Keys: the audit rules of `logsource.definition`
---------------------------------------------------------------------------

-- /bin, /sbin, /lib are /usr's on a merged system: one spelling
local function canon(p)
	p = p:gsub("/+$", "")
	return (p:gsub("^/usr/(s?bin)/", "/%1/"):gsub("^/usr/(lib%w*)/", "/%1/"))
end

-- one line's words: its watch or calls and key, or nil
local function audit_rule(line)
	local w = {}
	for word in line:gmatch("%S+") do w[#w + 1] = word end
	local r = { perms = {}, calls = nil }
	local i = 1
	while i <= #w do
		local o, v = w[i], w[i + 1]
		if o == "-w" and v then r.path = canon(v)
		elseif o == "-p" and v then for c in v:gmatch("[rwxa]") do r.perms[c] = true end
		elseif o == "-k" and v then r.key = v
		elseif o == "-S" and v then
			r.calls = r.calls or {}
			for c in v:gmatch("[^,]+") do r.calls[c] = true end
		elseif o == "-F" and v and not v:match("^arch=") then return nil -- a filter not honoured
		elseif o == "-a" and v and v ~= "always,exit" and v ~= "exit,always" then return nil
		elseif o:sub(1, 1) ~= "-" then return nil end
		i = i + 2
	end
	if not r.key or not (r.path or r.calls) then return nil end
	if r.path and not next(r.perms) then r.perms = { r = true, w = true, x = true, a = true } end
	return r
end

--- The keys a rule's `logsource.definition` sets, each as the list of
-- its audit rules.
-- @tparam[opt] string text the definition
-- @treturn table keys → list of rules
function M.keys(text)
	local keys = {}
	for line in tostring(text or ""):gmatch("[^\n]+") do
		local r = audit_rule(line)
		if r then
			keys[r.key] = keys[r.key] or {}
			table.insert(keys[r.key], r)
		end
	end
	return keys
end

--- Whether a record has a key: it is a SYSCALL record that one of the
-- audit rules would have written.
-- @tparam table rules the key's rules (`keys(...)[key]`)
-- @tparam table ev a record
-- @treturn boolean
function M.has_key(rules, ev)
	if ev.type ~= "SYSCALL" then return false end
	local obj, op = ev[M.OBJ], ev[M.OP]
	for _, r in ipairs(rules) do
		if r.calls and r.calls[ev.SYSCALL] then return true end
		if r.path and type(obj) == "string" and op and r.perms[op] then
			local p = canon(obj)
			if p == r.path or p:sub(1, #r.path + 1) == r.path .. "/" then return true end
		end
	end
	return false
end

return M
