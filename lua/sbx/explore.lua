-- SPDX-License-Identifier: MIT
--- sbx.explore: looking at a suspicious program from sbxlua's REPL.
--   s = explore "./sample"       -- a session: the analysis box (run.lua
--                                -- --explore: watch, sink, decoys)
--   r = s:run{"--flag"}          -- one run; prints a one-screen summary
--   r:opened() r:execs() r:connects() r:refused() r:files() r:dns()
--   r:read("/work/dropped.bin")  -- a written file's bytes (the capture)
--   s:allow("connect", "127.0.0.1:8080")
--   diff(r1, r2)                 -- what differs between two behaviours
-- Each run is `run.lua` in a process of its own (the same sbxlua), with
-- `--json` and `--keep` into the session's private temporary directory
-- (0700, removed by `s:close()` or when the session is collected).  The
-- box is run.lua's `--explore` (sbx.stdbox.ANALYSIS), with the session's
-- allow lists added to the watch profile; see docs/explore.md.
-- @module sbx.explore
local cjson = require "cjson"
local behaviour = require "sbx.behaviour"
local report = require "sbx.report"

local M = {}

local concat, sort = table.concat, table.sort

local quote, slurp = require("sbx._shell").quote, require("sbx._shell").read_file
local argcheck = require("sbx._arg").check

-- where run.lua and sbxlua are: beside this module, and the interpreter
-- that runs it (arg[-1] under a script, arg[0] in `-e` and the REPL;
-- $SBXLUA overrides)
local function tools()
	local here = package.searchpath("sbx.explore", package.path)
	local dir = here and here:match("^(.*)/sbx/explore%.lua$") or "."
	local exe = os.getenv("SBXLUA")
	for _, i in ipairs { -1, 0 } do
		if not exe and arg and type(arg[i]) == "string" and arg[i]:find("sbxlua$") then exe = arg[i] end
	end
	return exe or "sbxlua", dir .. "/run.lua"
end

-- a list that prints one entry a line
local List = { __name = "sbx.explore.list" }
List.__index = List
List.__tostring = function(l)
	if #l == 0 then return "(none)" end
	local out = {}
	for i, v in ipairs(l) do out[i] = report.escape(l.show and l.show(v) or tostring(v)) end
	return concat(out, "\n")
end
local function list(t, show)
	t.show = show
	return setmetatable(t, List)
end

-- ---- a run ----

local Run = { __name = "sbx.explore.run" }
Run.__index = Run

--- The paths the program opened (`files_opened`).
function Run:opened() return list(self.behaviour.files_opened) end
--- The command lines it executed (`command_executions`).
function Run:execs() return list(self.behaviour.command_executions) end
--- Its connects and sends (the events, with the answer).
function Run:connects()
	local out = {}
	for _, e in ipairs(self.result.events or {}) do
		if e.kind == "connect" or e.kind == "send" or e.kind == "bind" then out[#out + 1] = e end
	end
	return list(out, function(e) return ("%s %s (%s)"):format(e.kind, tostring(e.addr), tostring(e.answer)) end)
end
--- The calls refused (events answered deny or stop).
function Run:refused()
	local out = {}
	for _, e in ipairs(self.result.events or {}) do
		if e.answer == "deny" or e.answer == "stop" then out[#out + 1] = e end
	end
	return list(out, function(e)
		return ("%s %s (%s)"):format(e.syscall or e.kind, tostring(e.path or e.addr or ""), tostring(e.errno))
	end)
end
--- The files it left in the writable places (decoys as placed left out).
function Run:files()
	local out = {}
	for _, f in ipairs(self.result.files or {}) do
		if not f.decoy then out[#out + 1] = f end
	end
	return list(out, function(f) return report.written_line(f) end)
end
--- Its DNS lookups (the sink's records).
function Run:dns()
	return list(self.behaviour.dns_lookups, function(d)
		local ips = concat(d.resolved_ips or {}, ",")
		return d.hostname .. " -> " .. (ips ~= "" and ips or "NXDOMAIN")
	end)
end

--- A written file's bytes, from the run's capture (`--keep`).
-- @tparam string path the file's path in the box (`/work/x`)
-- @return the bytes, or nil, msg
function Run:read(path)
	argcheck(path, "string", 1, "read")
	for _, f in ipairs(self.result.files or {}) do
		if f.path == path then
			if not f.kept then return nil, path .. ": not kept (" .. f.type .. ")" end
			return slurp(self.keep .. "/" .. f.kept)
		end
	end
	return nil, path .. ": not written"
end

-- The run on a terminal: its command, the report once (run.lua's, which
-- holds the behaviour), then the program's own output as the result holds
-- it (its first bytes of each stream), each line escaped.
function Run:__tostring()
	local out = { ("run %d: %s"):format(self.n, report.escape(self.command)) }
	for l in self.report:gmatch("[^\n]+") do out[#out + 1] = l end
	for _, s in ipairs { "stdout", "stderr" } do
		local o = type(self.result.output) == "table" and self.result.output[s]
		if type(o) == "table" and (o.bytes or 0) > 0 then
			local cut = o.bytes > o.shown and (", the first %d shown"):format(o.shown) or ""
			out[#out + 1] = ("%s (%d B%s):"):format(s, o.bytes, cut)
			for l in (report.unescape(o.text) .. "\n"):gmatch("([^\n]*)\n") do
				out[#out + 1] = "  " .. report.escape(l)
			end
			if out[#out] == "  " then out[#out] = nil end
		end
	end
	return concat(out, "\n")
end

-- ---- a session ----

local Session = { __name = "sbx.explore.session" }
Session.__index = Session

--- Runs the program once in the session's box and prints the summary.
-- @tparam[opt] table args the program's arguments
-- @treturn table the run, or nil, msg
function Session:run(args)
	args = args or {}
	argcheck(args, "table", 1, "run")
	for i, a in ipairs(args) do
		if type(a) ~= "string" then
			error(("bad argument #1 to 'run' (argument %d is a %s, expected a string)"):format(i, type(a)), 2)
		end
	end
	assert(self.dir, "the session is closed")
	self.runs = self.runs + 1
	local n = self.runs
	local base = ("%s/run%d"):format(self.dir, n)
	local cmd = { quote(self.exe), quote(self.runlua) }
	self:_box_options(cmd, base)
	for _, a in ipairs { "--keep", quote(base .. ".keep"), "--json", quote(base .. ".json"),
		"--report", quote(base .. ".report"), "--html", quote(base .. ".html"),
		"--stdin", "none", quote(self.program) } do
		cmd[#cmd + 1] = a
	end
	for _, a in ipairs(args) do cmd[#cmd + 1] = quote(a) end
	local sh = concat(cmd, " ") .. " >" .. quote(base .. ".out") .. " 2>" .. quote(base .. ".err")
	os.execute(sh)
	local json = slurp(base .. ".json")
	if not json then return nil, "run " .. n .. ": no result: " .. (slurp(base .. ".err") or "") end
	local res = cjson.decode(json)
	local r = setmetatable({ n = n, session = self, result = res, behaviour = res.behaviour, keep = base .. ".keep",
		stdout = slurp(base .. ".out") or "", report = slurp(base .. ".report") or "",
		page = base .. ".html",
		command = concat({ self.program, table.unpack(args) }, " ") }, Run)
	if not self.quiet then print(r) end
	return r
end

-- The analysis box's options of a run or a shell into cmd: --explore, the
-- session's options, and its allow lists as a profile of the session's own
-- (the watch profile with notify lists, deny mode: outside a list refused)
-- written beside base.
function Session:_box_options(cmd, base)
	cmd[#cmd + 1] = "--explore"
	local o = self.options
	if self.notify.connect or self.notify.open then
		local prof = base .. ".profile.lua"
		local pf = assert(io.open(prof, "w"))
		pf:write("local p = (...).load(", ("%q"):format(o.profile or "watch"), ")\n",
			"p.notify = p.notify or {}\n",
			self.notify.connect and ("p.notify.connect = { " .. self:_quoted("connect") .. " }\n") or "",
			self.notify.open and ("p.notify.open = { " .. self:_quoted("open") .. " }\n") or "",
			"return p\n")
		pf:close()
		for _, a in ipairs { "--profile", quote(prof), "--mode", o.mode or "deny" } do cmd[#cmd + 1] = a end
	else
		if o.profile then cmd[#cmd + 1], cmd[#cmd + 2] = "--profile", quote(o.profile) end
		if o.mode then cmd[#cmd + 1], cmd[#cmd + 2] = "--mode", o.mode end
	end
	if o.net then cmd[#cmd + 1], cmd[#cmd + 2] = "--net", o.net end
	if o.wall then cmd[#cmd + 1], cmd[#cmd + 2] = "--wall", tostring(o.wall) end
end

function Session:_quoted(kind)
	local q = {}
	for i, v in ipairs(self.notify[kind]) do q[i] = ("%q"):format(v) end
	return concat(q, ", ")
end

local ALLOW = { connect = "ip:port", open = "a path" }

--- Adds to the session's notify table: `connect` an `ip:port` (from then
-- on, a connect or send to an address not listed is refused), `open` a
-- path (from then on, an open under no listed path is refused).  The
-- next run has it.
-- @tparam string kind `connect` or `open`
-- @tparam string value
function Session:allow(kind, value)
	if type(kind) ~= "string" or not ALLOW[kind] then
		error(("bad argument #1 to 'allow' (invalid option '%s')"):format(tostring(kind)), 2)
	end
	if type(value) ~= "string" or value == "" then
		error(("bad argument #2 to 'allow' (%s expected)"):format(ALLOW[kind]), 2)
	end
	if kind == "connect" and not value:match("^[%x.:%[%]]+:%d+$") then
		error(("bad argument #2 to 'allow' (ip:port expected, got '%s')"):format(value), 2)
	end
	self.notify[kind] = self.notify[kind] or {}
	local t = self.notify[kind]
	t[#t + 1] = value
	sort(t)
	return self
end

--- An interactive shell (`/bin/sh -i`) in the session's box (the same
-- analysis box and options as its runs), the program at `/work/NAME`, on
-- the box's own terminal when sbxlua's stdin is one.  With a run, the
-- files that run left (its `--keep` capture) are there too, read-only,
-- under `/run-N` (`/run-1/work/dropped.bin`).
-- @tparam[opt] table run a run of this session (`s:run` gave it)
-- @treturn integer the shell's exit status as run.lua reports it
function Session:shell(run)
	assert(self.dir, "the session is closed")
	if run ~= nil and (getmetatable(run) ~= Run or run.session ~= self) then
		error("bad argument #1 to 'shell' (a run of this session expected)", 2)
	end
	local name = self.program:match("([^/]+)$")
	local real = io.popen("realpath -- " .. quote(self.program)):read("l")
	local cmd = { quote(self.exe), quote(self.runlua) }
	self:_box_options(cmd, ("%s/shell%d"):format(self.dir, self.runs))
	cmd[#cmd + 1] = "--ro"
	cmd[#cmd + 1] = quote(real .. ":/work/" .. name)
	if run and io.open(run.keep) then
		-- the capture is the caller's, 0700 inside the session's 0700
		-- directory: readable by the box's host id (a root caller's box
		-- runs as another) for this shell; chmod -R follows no link
		os.execute("chmod -R go+rX -- " .. quote(run.keep))
		cmd[#cmd + 1] = "--ro"
		cmd[#cmd + 1] = quote(("%s:/run-%d"):format(run.keep, run.n))
	end
	for _, a in ipairs { "/bin/sh", "-i" } do cmd[#cmd + 1] = a end
	local _, _, code = os.execute(concat(cmd, " "))
	return code
end

--- Removes the session's temporary directory (every run's capture).
function Session:close()
	if self.dir then
		os.execute("rm -rf -- " .. quote(self.dir))
		self.dir = nil
	end
end
Session.__gc = Session.close
Session.__close = Session.close

function Session:__tostring()
	local n = {}
	for _, k in ipairs { "connect", "open" } do
		if self.notify[k] then n[#n + 1] = k .. " " .. concat(self.notify[k], ",") end
	end
	return ("explore %s: %d run(s), the analysis box%s"):format(report.escape(self.program),
		self.runs, #n > 0 and "; allowed " .. concat(n, "; ") or "")
end

-- explore's options and what each must be
local OPTION_CHECKS = {
	quiet = function(v) return type(v) == "boolean" end,
	wall = function(v) return math.type(v) == "integer" and v > 0 end,
	net = function(v) return v == "sink" or v == "none" end,
	mode = function(v) return v == "log" or v == "deny" or v == "stop" end,
	profile = function(v) return type(v) == "string" and v:match("^[%w_-]+$") ~= nil end,
}
local OPTION_WANTS = { quiet = "a boolean", wall = "a whole number of seconds",
	net = "'sink' or 'none'", mode = "'log', 'deny' or 'stop'", profile = "a profile's name" }

--- A session on a program.
-- @tparam string program its path on the host (a bare name is a file in
-- the current directory, as the shell's `./NAME`)
-- @tparam[opt] table opts `quiet` (no summary printed by `run`), and the
-- box's: `wall` (seconds), `net` (`sink`, the default, or `none`),
-- `profile` (a profile's name, default `watch`), `mode` (`log`, `deny`,
-- `stop`)
-- @treturn table the session, or nil, msg (a temporary directory could
-- not be made); a program that cannot be read raises an error naming it
function M.explore(program, opts)
	argcheck(program, "string", 1, "explore")
	opts = opts or {}
	argcheck(opts, "table", 2, "explore")
	for k, v in pairs(opts) do
		local check = OPTION_CHECKS[k]
		if not check then error(("bad argument #2 to 'explore' (unknown option '%s')"):format(tostring(k)), 2) end
		if not check(v) then
			error(("bad argument #2 to 'explore' (option '%s': %s expected)"):format(k, OPTION_WANTS[k]), 2)
		end
	end
	-- a bare name is the file here (run.lua would look it up in the
	-- box's PATH, where it is not)
	if not program:find("/", 1, true) then program = "./" .. program end
	local f = io.open(program, "rb")
	if not f or not f:read(0) then
		if f then f:close() end
		-- an error, not nil: `s = explore "typo"` at the REPL says why
		error(("explore: %s: cannot be read"):format(report.escape(program)), 2)
	end
	f:close()
	local p = io.popen("mktemp -d /tmp/sbx-explore.XXXXXXXX")
	local dir = p and p:read("l")
	if p then p:close() end
	if not dir or dir == "" then return nil, "mktemp: failed" end
	local exe, runlua = tools()
	local options = {}
	for k, v in pairs(opts) do if k ~= "quiet" then options[k] = v end end
	return setmetatable({ program = program, dir = dir, runs = 0, notify = {}, exe = exe,
		runlua = runlua, quiet = opts.quiet, options = options }, Session)
end

--- What differs between two runs' behaviour: `+ field=value` in the
-- second only, `- field=value` in the first only (the behash's facts).
-- @treturn table a list that prints one difference a line
function M.diff(a, b)
	if getmetatable(a) ~= Run then error("bad argument #1 to 'diff' (a run expected)", 2) end
	if getmetatable(b) ~= Run then error("bad argument #2 to 'diff' (a run expected)", 2) end
	local function set(r)
		local s = {}
		for l in behaviour.canonical(r.behaviour):gmatch("[^\n]+") do s[l] = true end
		return s
	end
	local sa, sb, out = set(a), set(b), {}
	for l in pairs(sa) do if not sb[l] then out[#out + 1] = "- " .. l end end
	for l in pairs(sb) do if not sa[l] then out[#out + 1] = "+ " .. l end end
	sort(out, function(x, y) return x:sub(3) < y:sub(3) or (x:sub(3) == y:sub(3) and x < y) end)
	return list(out)
end

M.HELP = [[
explore("PROG" [, {wall=, net=, profile=, mode=}])
                           a session: the analysis box (watch profile, sink, decoys)
s:run{ARGS...}             run it; prints the report (with the behaviour), then
                           the program's own output
r:opened() r:execs()       paths opened, command lines executed
r:connects() r:refused()   connects and sends; refused calls
r:files() r:dns()          files left in the writable places; DNS lookups
r:read("/work/x")          a written file's bytes (from the capture)
r.behaviour r.result       the behaviour summary; the whole --json result
r.page                     the run's HTML page (a file of the session)
s:allow("connect", "IP:PORT")  allow a connect from the next run on
s:allow("open", "PATH")    allow opens under PATH (then refuse the rest)
diff(r1, r2)               what differs between two runs' behaviour
s:shell([r])               an interactive shell in the same box; with a run r,
                           the files r left under /run-N (read-only)
s:close()                  remove the session's captures
help()                     this text]]

--- Prints the helpers.
function M.help()
	print(M.HELP)
end

return M
