-- run.lua: run one program in the standard box and print an exact report.
--   sbxlua run.lua [options] PROG [ARGS...]
-- Thin: the options to the standard box's options (a table, parsed by
-- sbx.cli), the facade's run, the report and the exit code.
local sbx = require "sbx"
local stdbox = require "sbx.stdbox"
local cli = require "sbx.cli"
local report = require "sbx.report"
local limits = require "sbx.limits"
local profile = require "sbx.profile"
-- every module before the first box: a box may write into the caller's
-- directory, and nothing is loaded after it has run (those only some runs
-- use: load_modules, once the options are known)
local sink = require "sbx.sink"
local backend = require "sbx.backend"
local afterrun = require "sbx.afterrun"
local behaviour = require "sbx.behaviour"
local cjson, verdict, rules

local refuse, reason, split_dest = cli.refuse, cli.reason, cli.split_dest
local clean_box_path, host_path = cli.clean_box_path, cli.host_path

-- Each option: its name(s), its value's name (none: a flag), its help,
-- and what it sets in the standard box's options `o` (once per value, in
-- the order typed).
local OPTIONS = {
	{ "--ro", "PATH[:DEST]", "bind a host path read-only (at DEST, default PATH)",
		function(o, typed, opt)
			local real, dst = host_path(opt, typed)
			table.insert(o.ro, { src = real, dst = clean_box_path(opt, typed, dst or real) })
		end },
	{ "--rw", "PATH[:DEST]", "bind a host directory writable (e.g. --rw .:/work)",
		function(o, typed, opt)
			local real, dst = host_path(opt, typed)
			dst = clean_box_path(opt, typed, dst or real)
			local ok, why = stdbox.check_writable(real)
			if not ok then refuse("--rw %s: %s", typed, why) end
			table.insert(o.rw, { src = real, dst = dst })
		end },
	{ "--socket", "PATH[:DEST]", "let the box connect to the host unix socket PATH (at DEST, "
		.. "default PATH) as the box's host id; every other socket in a --ro or --rw bind is covered",
		function(o, typed, opt)
			-- a grant: the box may talk to this daemon (as its host id)
			local real, dst = host_path(opt, typed)
			local st = sbx.lstat(real)
			if not st or st.type ~= "socket" then refuse("--socket %s: not a unix socket", typed) end
			table.insert(o.socket, { src = real, dst = clean_box_path(opt, typed, dst or real) })
		end },
	{ "--tmp", "DEST[:SIZE]", "a private tmpfs at DEST",
		function(o, typed, opt)
			local dst, size = split_dest(typed)
			local t = { dst = clean_box_path(opt, typed, dst) }
			if size then
				local n, msg = limits.parse_size(size)
				if not n then refuse("--tmp %s: %s", typed, msg) end
				t.size = n
			end
			table.insert(o.tmp, t)
		end },
	{ "--env", "K=V", "set a variable (the environment is otherwise fixed)",
		function(o, typed)
			local k, v = typed:match("^([^=]+)=(.*)$")
			if not k then refuse("--env %s: expected K=V", typed) end
			o.env[k] = v
		end },
	{ "--cwd", "DIR", "working directory inside the box (default /work)",
		function(o, typed, opt) o.cwd = clean_box_path(opt, typed, typed) end },
	{ "--wall", "S", "wall-clock limit in seconds (default 60)", "wall" },
	{ "--cpu", "S", "CPU time of the whole box (default 30)", "cpu" },
	{ "--mem", "SIZE", "memory limit (default 512M)", "memory" },
	{ "--pids", "N", "task limit (default 128)", "tasks" },
	{ "--out", "SIZE", "output limit per stream (default 16M)", "output" },
	{ "--nofile", "N", "open files per process (default 256)", "open_files" },
	{ "--fsize", "SIZE", "file size limit (default 64M)", "file_size" },
	{ "--tmp-size", "SIZE", "size of /tmp (default 64M)", "tmp" },
	{ "--cgroup", "DIR|none", "cgroup v2 base for the box's cgroup (default: the environment's "
		.. "SBXLUA_CGROUP, else found)",
		function(o, typed)
			if typed == "none" then
				o.cgroup = false
			elseif typed:sub(1, 1) ~= "/" then
				refuse("--cgroup %s: expected an absolute directory or none", typed)
			else
				o.cgroup = typed
			end
		end },
	{ "--net", "none|host|sink", "network: an empty namespace (default), the host's, or a sink "
		.. "(names resolve to 10.0.0.2, every connect to a caught port is recorded; nothing leaves)",
		function(o, typed)
			if typed ~= "none" and typed ~= "host" and typed ~= "sink" then
				refuse("--net %s: expected none, host or sink", typed)
			end
			o.net = typed
		end },
	{ "--sink-ports", "LIST", "with --net sink: the TCP and UDP ports caught beside "
		.. table.concat(sink.always, ",") .. ", e.g. 25,6667 (default " .. table.concat(sink.ports, ",") .. ")",
		function(o, typed)
			local ports, why = sink.parse_ports(typed)
			if not ports then refuse("--sink-ports %s: %s", typed, why) end
			o.sink_ports = ports
		end },
	{ "--host-id", "N", "a root caller's box's host uid and gid (default 1879048192; refused if "
		.. "an account or process has it)",
		function(o, typed)
			local n = tonumber(typed)
			if not n or math.type(n) ~= "integer" then refuse("--host-id %s: expected a whole number", typed) end
			o.host_id = n
		end },
	{ "--stdin", "FILE|-|none", "stdin from FILE, a regular file (no symlink on its path), - for "
		.. "sbxlua's own stdin, or none for nothing (default: sbxlua's own stdin when it is a pipe or "
		.. "a regular file, a terminal of the box's own when it is a terminal, else nothing)",
		function(o, typed)
			-- opened and checked now, before the box exists; the box
			-- reads that descriptor, never the path again
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
		end },
	{ "--profile", "NAME", "seccomp profile: default, none, or a file (default)",
		function(o, typed) o.profile = typed end },
	{ "--mode", "stop|deny|log", "a call the profile sends to sbxlua and refuses: stop ends the box "
		.. "(exit 125), deny fails the call and goes on, log lets it through; each is reported "
		.. "(default: the profile's own, else deny)",
		function(o, typed)
			if typed ~= "stop" and typed ~= "deny" and typed ~= "log" then
				refuse("--mode %s: expected stop, deny or log", typed)
			end
			o.mode = typed
		end },
	{ "--tty-raw", nil, "pass the program's output to the caller's terminal unfiltered (by "
		.. "default, when stdout or stderr is a terminal, only what draws reaches it: text, colours, "
		.. "cursor movement; no OSC, DCS, APC, PM or SOS string, no query the terminal answers on its "
		.. "input)",
		-- what the program writes reaches the caller's terminal as it is
		function(o) o.tty_raw = true end },
	{ "--backend", "ns|process|oci", "what builds the box: the namespace box (default), no namespace at "
		.. "all (limits and filters only), or an OCI runtime; never chosen by sbxlua",
		function(o, typed)
			if not backend.check(typed) then refuse("--backend %s: expected ns, process or oci", typed) end
			o.backend = typed
		end },
	{ "--runtime", "runc|crun|podman", "the OCI runtime (default: runc, else crun); podman runs an --image "
		.. "(with runc, never pulling)",
		function(o, typed)
			if typed ~= "runc" and typed ~= "crun" and typed ~= "podman" then
				refuse("--runtime %s: expected runc, crun or podman", typed)
			end
			o.runtime = typed
		end },
	{ "--rootfs", "DIR", "the namespace box's root: a directory root (read-only) instead of the "
		.. "host's /usr",
		function(o, typed)
			local real, msg = stdbox.host_path(typed)
			if not real then refuse("--rootfs %s: %s", typed, msg) end
			o.rootfs = real
		end },
	{ "--image", "DIR@sha256:HEX", "the namespace box's root: the image whose manifest has that "
		.. "digest in the local OCI image layout DIR (never pulled; every blob's sha256 checked; "
		.. "unpacked once, in a box, into the caller's cache)",
		function(o, typed) o.image = typed end },
	{ "--keep", "DIR", "copy the regular files the program left in the box's writable places into "
		.. "DIR (made 0700; an existing DIR must be empty and the caller's; names made safe, sizes "
		.. "capped)",
		function(o, typed) o.keep = typed end },
	{ "--decoys", nil, "place decoy credentials in the box (~/.ssh/id_rsa, ~/.aws/credentials, a "
		.. "browser's Login Data, /etc/shadow), each with a marker random per run; a marker found in "
		.. "a written file or captured output is noted",
		function(o) o.decoys = true end },
	{ "--report", "FILE", "also write the report to FILE", "report" },
	{ "--json", "FILE", "write the structured result to FILE", "json" },
	{ "--explore", nil, "the analysis box: record everything, change nothing (the watch profile: the "
		.. "default box's refusals, every open, exec, connect, process, file change, signal and memfd "
		.. "recorded and let through; --net sink; --decoys; --behaviour; a PROG that is not executable "
		.. "run by its content: a #! line's interpreter, an ELF file's loader), then the verdict; an "
		.. "option typed beside it wins",
		function(o) o.explore = true end },
	{ "--behaviour", nil, "print the behaviour summary (files, processes, network, refused "
		.. "calls, behash) to stderr after the report",
		function(o) o.behaviour = true end },
	{ "-v --verbose", nil, "add the isolation report to the report",
		function(o) o.verbose = true end },
}

-- an option that sets a limit, by the limit's name in sbx.limits
local function set_limit(name)
	return function(o, typed, opt)
		local n, msg = limits.parse(name, typed)
		if not n then refuse("%s %s: %s", opt, typed, msg) end
		o.limits[name] = n
	end
end

-- an output opened now, before the box exists: written later through the
-- directory's descriptor, never through a path the box changed
local function set_output(key)
	return function(o, typed, opt)
		local out, msg = sbx.output(typed)
		if not out then refuse("%s %s: %s", opt, typed, reason(msg)) end
		if o[key] then o[key]:close() end
		o[key] = out
	end
end

for _, opt in ipairs(OPTIONS) do
	if opt[4] == "report" or opt[4] == "json" then
		opt[4] = set_output(opt[4])
	elseif type(opt[4]) == "string" then
		opt[4] = set_limit(opt[4])
	end
end

local CLI = {
	name = "run.lua",
	description = "Runs PROG in the standard box (every namespace, a private read-only root, "
		.. "read-only /usr, a synthetic /etc, private /work and /tmp, no network, no capabilities, "
		.. "no_new_privs, a seccomp filter, Landlock, limits) and writes a report to stderr after "
		.. "the box is gone.",
	epilog = "Exit status: the program's own; 128+N for signal N (a call the filter kills: SIGSYS, "
		.. "159); 124 a limit stopped it; 125 a refusal ended it (--mode stop); 126 the box "
		.. "could not be set up.",
	options = OPTIONS,
	arguments = { { "PROG", "the program: a path, or a name found in the box's PATH" },
		{ "ARGS", "its arguments", "*" } },
}

local function parse(argv)
	local args = cli.parse(CLI, argv, report.EXIT_CANNOT)
	local o = cli.apply(OPTIONS, args, { ro = {}, rw = {}, socket = {}, tmp = {}, env = {}, limits = {} })
	if o.cgroup == nil and (os.getenv("SBXLUA_CGROUP") or "") ~= "" then
		o.cgroup = os.getenv("SBXLUA_CGROUP")
		if o.cgroup == "none" then o.cgroup = false end
	end
	o.prog, o.args = args.PROG, args.ARGS
	if o.explore then
		stdbox.analysis(o)
		o.behaviour = true
	end
	-- the written places are recorded, and decoys placed, in the
	-- namespace box's own tree: never silently not done
	if (o.keep or o.decoys) and (o.backend or "ns") ~= "ns" then
		refuse("%s: needs the namespace box (--backend ns)", o.keep and "--keep" or "--decoys")
	end
	return o
end

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

-- Writes an output prepared by sbx.output; says why not on stderr.
local function write_out(opt, out, data)
	local ok, msg = out:write(data)
	out:close()
	if not ok then io.stderr:write("sbxlua: ", report.escape(("%s %s: %s"):format(opt, out.path, reason(msg))), "\n") end
	return ok
end

-- The box's filter and what a refusal does (from the profile), its
-- terminal and its stdin, set in o.
local function settle_filter_and_stdin(o)
	if o.sink_ports and o.net ~= "sink" then refuse("--sink-ports: only with --net sink") end
	-- the profile's refusals are named in the report (their errnos
	-- unchanged): the explain channel, at no cost for what it allows
	local filter, prof = profile.filter(o.profile or "default", { name_refusals = true })
	if filter == nil then
		-- a profile refused or malformed, or libseccomp's failure
		local msg = prof
		refuse("--profile %s: %s", o.profile or "default",
			msg:find("^profile ") and reason(msg) or msg)
	end
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
end

-- Builds and runs the box of o; refuses (exit 126) when it cannot be.
-- Returns the result and the build's info.
local function run_box(o)
	local spec, info = backend.build(o)
	if not spec then
		-- a refusal of an option the operator typed names that option,
		-- not the program (`--image ...: cannot unpack ...`)
		if info:find("^%-%-") then refuse("%s", info) end
		refuse("%s: %s", o.prog, info)
	end
	local r, rmsg = backend.run(spec, info)
	-- a base the operator names must work (the core probes it and refuses
	-- the box): never a silent fallback
	if not r and type(o.cgroup) == "string" and rmsg:find("^cgroup base ") then
		refuse("--cgroup %s: %s", o.cgroup, reason(rmsg))
	end
	if not r then refuse("%s", rmsg) end
	return r, info
end

-- The report of a run on stderr, and the outputs o asks for; returns the
-- exit code.
local function report_run(o, r, info)
	-- the box is gone: the set-id sweep, the written files, the decoys'
	-- markers, the events and the verified claims (sbx.afterrun)
	local events, verified = afterrun.collect(r, info, sbx.ns_ids())
	local text = report.text(r, info, events, verified, o.verbose)
	if o.verbose then text = text .. sink.text(r) end
	-- every report line begins a line, whatever the program left
	-- unfinished on stderr (or on stdout, when both are the terminal)
	local open_line = r.stderr_partial or (r.stdout_partial and sbx.isatty(1) and sbx.isatty(2))
	io.stderr:write(open_line and "\n" or "", text)
	-- the backend that could not be built here, and those that could run
	local why = backend.refusal(r, info)
	if why then io.stderr:write("sbxlua: ", report.escape(why), "\n") end
	local ok = true
	if o.report then ok = write_out("--report", o.report, text) and ok end
	if o.json or o.behaviour then
		local res = afterrun.result(r, info, events, verified)
		if o.explore then
			res.verdict = verdict.judge(res, rules)
			behaviour.judged(res.behaviour, res.verdict)
		end
		if o.behaviour then io.stderr:write(behaviour.text(res.behaviour)) end
		if o.explore then io.stderr:write(verdict.text(res.verdict)) end
		if o.json then ok = write_out("--json", o.json, cjson.encode(res) .. "\n") and ok end
	end
	-- an output the caller asked for and did not get (the box left
	-- something other than a regular file at its name): 126, whatever the
	-- program's own status was
	if not ok then return report.EXIT_CANNOT end
	return report.exit_code(events)
end

-- The modules of what the options ask for, before the first box (above):
-- the JSON and the behaviour summary, the backend and root chosen.  (The
-- backends' refusal loads sbx.backend.oci only when the namespace box
-- could not even be cloned: nothing ran.)
local function load_modules(o)
	if o.json then cjson = require "cjson" end
	if o.explore then
		verdict = require "sbx.verdict"
		local msg
		rules, msg = verdict.defaults()
		if not rules then refuse("--explore: the default rules: %s", msg) end
	end
	local name = o.backend or "ns"
	if name == "process" then require "sbx.backend.process" end
	if name == "oci" then require "sbx.backend.oci" end
	if name == "oci" and o.runtime == "podman" then require "sbx.backend.podman" end
	if o.rootfs or o.image then require "sbx.backend.rootfs" end
	if o.image then require "sbx.backend.image" end
end

local function main(argv)
	local o = parse(argv)
	load_modules(o)
	settle_filter_and_stdin(o)
	local r, info = run_box(o)
	return report_run(o, r, info)
end

-- a copy of arg, not table.unpack: the script's own `...` already holds
-- every argument on Lua's stack, which cannot take half a million twice
local argv = {}
for i = 1, #arg do argv[i] = arg[i] end
os.exit(main(argv))
