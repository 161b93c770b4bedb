-- run.lua: run one program in the standard box and print an exact report.
--   sbxlua run.lua [options] PROG [ARGS...]
-- Thin: parse the command line, call the facade, map the result to the
-- report and the exit code.
local sbx = require "sbx"
local stdbox = require "sbx.box"
local report = require "sbx.report"
local limits = require "sbx.limits"
local profile = require "sbx.profile"
-- every module before the first box: a box may write into the caller's
-- directory, and nothing is loaded after it has run
local cjson = require "cjson"
local setid = require "sbx.setid"

local USAGE = [[
usage: sbxlua run.lua [options] PROG [ARGS...]

Runs PROG in the standard box (every namespace, a private read-only root,
read-only /usr, a synthetic /etc, private /work and /tmp, no network, no
capabilities, no_new_privs, a seccomp filter, Landlock, limits) and writes a
report to stderr after the box is gone.

  --ro PATH[:DEST]    bind a host path read-only (at DEST, default PATH)
  --rw PATH[:DEST]    bind a host directory writable (e.g. --rw .:/work)
  --socket PATH[:DEST]
                      let the box connect to the host unix socket PATH (at
                      DEST, default PATH) as the box's host id; every other
                      socket in a --ro or --rw bind is covered
  --tmp DEST[:SIZE]   a private tmpfs at DEST
  --env K=V           set a variable (the environment is otherwise fixed)
  --cwd DIR           working directory inside the box (default /work)
  --wall S            wall-clock limit in seconds (default 60)
  --cpu S             CPU time of the whole box (default 30)
  --mem SIZE          memory limit (default 512M)
  --pids N            task limit (default 128)
  --out SIZE          output limit per stream (default 16M)
  --nofile N          open files per process (default 256)
  --fsize SIZE        file size limit (default 64M)
  --tmp-size SIZE     size of /tmp (default 64M)
  --cgroup DIR|none   cgroup v2 base for the box's cgroup (default: the
                      environment's SBXLUA_CGROUP, else found)
  --net none|host     network: an empty namespace (default) or the host's
  --host-id N         a root caller's box's host uid and gid (default
                      1879048192; refused if an account or process has it)
  --stdin FILE|-|none stdin from FILE, a regular file (no symlink on its
                      path), - for sbxlua's own stdin, or none for nothing
                      (default: sbxlua's own stdin when it is a pipe or a
                      regular file, a terminal of the box's own when it is
                      a terminal, else nothing)
  --profile NAME      seccomp profile: default, none, or a file (default)
  --mode MODE         a call the profile sends to sbxlua and refuses: stop
                      ends the box (exit 125), deny fails the call and goes
                      on, log lets it through; each is reported (default:
                      the profile's own, else deny)
  --tty-raw           pass the program's output to the caller's terminal
                      unfiltered (by default, when stdout or stderr is a
                      terminal, only what draws reaches it: text, colours,
                      cursor movement; no OSC, DCS, APC, PM or SOS string,
                      no query the terminal answers on its input)
  --report FILE       also write the report to FILE
  --json FILE         write the structured result to FILE
  --verbose           add the isolation report to the report
  --help              this text

Exit status: the program's own; 128+N for signal N (a call the filter kills:
SIGSYS, 159); 124 a limit stopped it; 125 a refusal ended it (--mode stop);
126 the box could not be set up.
]]

-- what the operator typed and what the host said, escaped: one line
local function refuse(fmt, ...)
	io.stderr:write("sbxlua: ", report.escape(fmt:format(...)), "\n")
	os.exit(report.EXIT_CANNOT)
end

-- "<call> <operand>: <why>" from the core, as "<why>" after the option
-- and the path the caller typed
local function reason(msg)
	return msg:match(": (.*)$") or msg
end

local function split_dest(s)
	local a, b = s:match("^(.-):([^:]*)$")
	if a and a ~= "" then return a, b end
	return s, nil
end

local function clean_box_path(opt, typed, p)
	if p:sub(1, 1) ~= "/" or p:find("/%.%.?/") or p:find("/%.%.?$") then
		refuse("%s %s: DEST must be an absolute path without . or ..", opt, typed)
	end
	return p
end

local function home_dirs()
	local homes = {}
	local h = os.getenv("HOME")
	if h and h ~= "" then homes[#homes + 1] = sbx.realpath(h) or h end
	local uid = sbx.ids().uid
	local f = io.open("/etc/passwd")
	if f then
		for l in f:lines() do
			local u, dir = l:match("^[^:]*:[^:]*:(%d+):%d+:[^:]*:([^:]*):")
			if tonumber(u) == uid and dir ~= "" then homes[#homes + 1] = sbx.realpath(dir) or dir end
		end
		f:close()
	end
	return homes
end

-- path is dir or below it
local function under(path, dir)
	return path == dir or path:sub(1, #dir + 1) == dir .. "/"
end

-- What sbxlua loads or runs: its bundled Lua directory, its profiles and
-- its executable, as real paths (each that resolves)
local function own_files()
	local config = package.loaded["sbx.config"]
	local own = {}
	for _, p in ipairs {
		type(config) == "table" and config.luadir or false,
		profile.dir() or false,
		"/proc/self/exe",
	} do
		local real = p and sbx.realpath(p)
		if real then own[#own + 1] = real end
	end
	return own
end

-- options that set a limit, by the limit's name in sbx.limits
local limit_opts = {
	["--wall"] = "wall", ["--cpu"] = "cpu", ["--mem"] = "memory", ["--pids"] = "tasks",
	["--out"] = "output", ["--nofile"] = "open_files", ["--fsize"] = "file_size",
	["--tmp-size"] = "tmp",
}

local function parse(argv)
	local o = { ro = {}, rw = {}, socket = {}, tmp = {}, env = {}, limits = {}, args = {} }
	local i = 1
	local function value(opt)
		i = i + 1
		local v = argv[i]
		if v == nil then refuse("%s needs a value", opt) end
		return v
	end
	while i <= #argv do
		local a = argv[i]
		local opt, inline = a:match("^(%-%-[%w-]+)=(.*)$")
		if opt then
			a = opt
			table.insert(argv, i + 1, inline)
		end
		if a == "--help" or a == "-h" then
			io.stdout:write(USAGE)
			os.exit(0)
		elseif a == "--ro" or a == "--rw" then
			local typed = value(a)
			local src, dst = split_dest(typed)
			local real, msg = stdbox.host_path(src)
			if not real then refuse("%s %s: %s", a, typed, msg) end
			dst = clean_box_path(a, typed, dst or real)
			if a == "--rw" then
				if real == "/" then refuse("--rw %s: refusing to make the host's root writable", typed) end
				for _, h in ipairs(home_dirs()) do
					-- the home directory, or a directory that holds it
					if h == real or h:sub(1, #real + 1) == real .. "/" then
						refuse("--rw %s: refusing to make the home directory writable", typed)
					end
				end
				-- sbxlua's own files: a box that rewrote them would run its
				-- code in every later sbxlua, with the caller's rights
				for _, own in ipairs(own_files()) do
					if under(own, real) or under(real, own) then
						refuse("--rw %s: refusing to make sbxlua's own files writable", typed)
					end
				end
				local st = sbx.lstat(real)
				if not st or st.type ~= "dir" then refuse("--rw %s: not a directory", typed) end
				table.insert(o.rw, { src = real, dst = dst })
			else
				table.insert(o.ro, { src = real, dst = dst })
			end
		elseif a == "--socket" then
			-- a grant: the box may talk to this daemon (as its host id)
			local typed = value(a)
			local src, dst = split_dest(typed)
			local real, msg = stdbox.host_path(src)
			if not real then refuse("--socket %s: %s", typed, msg) end
			local st = sbx.lstat(real)
			if not st or st.type ~= "socket" then refuse("--socket %s: not a unix socket", typed) end
			table.insert(o.socket, { src = real, dst = clean_box_path(a, typed, dst or real) })
		elseif a == "--tmp" then
			local typed = value(a)
			local dst, size = split_dest(typed)
			local t = { dst = clean_box_path(a, typed, dst) }
			if size then
				local n, msg = limits.parse_size(size)
				if not n then refuse("--tmp %s: %s", typed, msg) end
				t.size = n
			end
			table.insert(o.tmp, t)
		elseif a == "--env" then
			local typed = value(a)
			local k, v = typed:match("^([^=]+)=(.*)$")
			if not k then refuse("--env %s: expected K=V", typed) end
			o.env[k] = v
		elseif a == "--cwd" then
			local typed = value(a)
			o.cwd = clean_box_path(a, typed, typed)
		elseif limit_opts[a] then
			local typed = value(a)
			local n, msg = limits.parse(limit_opts[a], typed)
			if not n then refuse("%s %s: %s", a, typed, msg) end
			o.limits[limit_opts[a]] = n
		elseif a == "--cgroup" then
			local typed = value(a)
			if typed == "none" then
				o.cgroup = false
			elseif typed:sub(1, 1) ~= "/" then
				refuse("--cgroup %s: expected an absolute directory or none", typed)
			else
				o.cgroup = typed
			end
		elseif a == "--net" then
			local typed = value(a)
			if typed ~= "none" and typed ~= "host" then refuse("--net %s: expected none or host", typed) end
			o.net = typed
		elseif a == "--stdin" then
			-- opened and checked now, before the box exists; the box
			-- reads that descriptor, never the path again
			local typed = value(a)
			local f, msg
			if typed == "none" then
				f = false
			elseif typed == "-" then
				f, msg = sbx.stdin()
			else
				f, msg = sbx.open_file(typed)
			end
			if f == nil then refuse("--stdin %s: %s", typed, reason(msg)) end
			if o.stdin then o.stdin:close() end
			o.stdin = f
		elseif a == "--host-id" then
			local typed = value(a)
			local n = tonumber(typed)
			if not n or math.type(n) ~= "integer" then refuse("--host-id %s: expected a whole number", typed) end
			o.host_id = n
		elseif a == "--profile" then
			o.profile = value(a)
		elseif a == "--mode" then
			o.mode = value(a)
			if o.mode ~= "stop" and o.mode ~= "deny" and o.mode ~= "log" then
				refuse("--mode %s: expected stop, deny or log", o.mode)
			end
		elseif a == "--report" or a == "--json" then
			-- opened now, before the box exists: written later through the
			-- directory's descriptor, never through a path the box changed
			local typed, key = value(a), a:sub(3)
			local out, msg = sbx.output(typed)
			if not out then refuse("%s %s: %s", a, typed, reason(msg)) end
			if o[key] then o[key]:close() end
			o[key] = out
		elseif a == "--tty-raw" then
			-- what the program writes reaches the caller's terminal as it is
			o.tty_raw = true
		elseif a == "--verbose" or a == "-v" then
			o.verbose = true
		elseif a == "--" then
			i = i + 1
			break
		elseif a:sub(1, 1) == "-" and a ~= "-" then
			refuse("unknown option %s (see --help)", a)
		else
			break
		end
		i = i + 1
	end
	if o.cgroup == nil and (os.getenv("SBXLUA_CGROUP") or "") ~= "" then
		o.cgroup = os.getenv("SBXLUA_CGROUP")
		if o.cgroup == "none" then o.cgroup = false end
	end
	if type(o.cgroup) == "string" then
		-- a base the operator names must work: never a silent fallback
		local cg, msg = sbx.cgroup_probe(o.cgroup)
		if not cg then refuse("--cgroup %s: %s", o.cgroup, msg) end
		if not cg.usable then refuse("--cgroup %s: %s", o.cgroup, cg.reason or "not usable") end
	end
	o.prog = argv[i]
	if not o.prog then
		io.stderr:write(USAGE)
		refuse("missing PROG")
	end
	for j = i + 1, #argv do o.args[#o.args + 1] = argv[j] end
	return o
end

-- Writes an output prepared by sbx.output; says why not on stderr.
-- sbxlua's own stdin when no --stdin was given and it is not a terminal:
-- a pipe or a regular file is relayed (a copy of descriptor 0 the supervisor
-- reads; the box never gets it), anything else (closed, /dev/null or
-- another device, a socket) gives the box nothing
local function inherited_stdin()
	local f = sbx.stdin()
	if not f then return nil end -- descriptor 0 is closed
	local st = f:stat()
	if st and (st.type == "fifo" or st.type == "file") then return f end
	f:close()
	return nil
end

local function write_out(opt, out, data)
	local ok, msg = out:write(data)
	out:close()
	if not ok then io.stderr:write("sbxlua: ", report.escape(("%s %s: %s"):format(opt, out.path, reason(msg))), "\n") end
	return ok
end

local function main(argv)
	local o = parse(argv)
	local prof, msg = profile.load(o.profile or "default")
	if prof == nil then refuse("--profile %s: %s", o.profile or "default", reason(msg)) end
	-- the profile's refusals are named in the report (their errnos
	-- unchanged): the explain channel, at no cost for what it allows
	local filter, ferr = profile.compile(prof, { name_refusals = true })
	if filter == nil then refuse("--profile %s: %s", o.profile or "default", ferr) end
	o.filter = filter -- false: the profile "none"
	o.profile = o.profile or "default"
	-- a refusal ends the box (stop), fails the call (deny) or is let
	-- through and recorded (log): the profile's own default, else deny
	local pmode, ntable = profile.notify(prof)
	o.mode = o.mode or pmode or "deny"
	o.notify = ntable
	-- an interactive program gets a terminal of the box's own, never the
	-- caller's (TIOCSTI into the caller's terminal must be impossible)
	o.pty = o.stdin == nil and sbx.isatty(0)
	if o.stdin == nil and not o.pty then o.stdin = inherited_stdin() end
	o.stdin = o.stdin or nil

	local spec, info = stdbox.build(o)
	if not spec then refuse("%s: %s", o.prog, info) end
	local r, rmsg = sbx.run(spec)
	if not r then refuse("%s", rmsg) end
	-- the box is gone: no set-id file of its host id stays in a --rw
	-- directory (reported after the run's own events)
	local swept = setid.after_run(info)

	-- a cgroup that could not be made at run time: the sampler held
	-- memory and tasks instead, and the report says so
	if r.cgroup_error then
		for _, k in ipairs { "memory", "tasks" } do
			if info.enforcement[k] == "cgroup" then info.enforcement[k] = "sampled" end
		end
	end
	local events = report.events(r, info)
	for _, e in ipairs(swept) do events[#events + 1] = e end
	local verified = report.verify(r, info, sbx.ns_ids())
	local lines = {}
	if o.verbose then
		for _, l in ipairs(report.isolation_lines(info, verified)) do lines[#lines + 1] = l end
		for _, l in ipairs(report.call_summary(events)) do lines[#lines + 1] = l end
	end
	for _, e in ipairs(events) do lines[#lines + 1] = report.line(e) end
	local text = {}
	for _, l in ipairs(lines) do text[#text + 1] = "sandbox: " .. l .. "\n" end
	text = table.concat(text)
	-- every report line begins a line, whatever the program left
	-- unfinished on stderr (or on stdout, when both are the terminal)
	local open_line = r.stderr_partial or (r.stdout_partial and sbx.isatty(1) and sbx.isatty(2))
	io.stderr:write(open_line and "\n" or "", text)
	local ok = true
	if o.report then ok = write_out("--report", o.report, text) and ok end
	if o.json then
		ok = write_out("--json", o.json, cjson.encode(report.result(r, info, events, verified)) .. "\n") and ok
	end
	-- an output the caller asked for and did not get (the box left
	-- something other than a regular file at its name): 126, whatever the
	-- program's own status was
	if not ok then return report.EXIT_CANNOT end
	return report.exit_code(events)
end

-- a copy of arg, not table.unpack: the script's own `...` already holds
-- every argument on Lua's stack, which cannot take half a million twice
local argv = {}
for i = 1, #arg do argv[i] = arg[i] end
os.exit(main(argv))
