-- SPDX-License-Identifier: MIT
--- sbx.options: every option of sbxlua's scripts, declared once: its
-- name, its value's name, its help (a default read from the module that
-- owns it: `sbx.limits`, `sbx.sink`), the scripts that take it, and what it
-- sets in the options table `o` of the standard box (`sbx.stdbox.build`)
-- or of the script.  A name means one thing in every script that takes
-- it; an old spelling still works, with a line saying its new name.
--   local o, args = options.parse("run", argv)
-- @module sbx.options
local sbx = require "sbx"
local core = require "sbx.core"
local cli = require "sbx.cli"
local limits = require "sbx.limits"
local report = require "sbx.report"
local sink = require "sbx.sink"
local argcheck = require("sbx._arg").check

local M = {}

local refuse, reason, split_dest = cli.refuse, cli.reason, cli.split_dest
local clean_box_path, host_path = cli.clean_box_path, cli.host_path

-- a limit's default as the operator types it: 512M, 60
local function typed_default(name)
	local v, kind = limits.defaults[name], limits.kinds[name]
	if kind ~= "size" then return tostring(v) end
	for _, u in ipairs { { "G", limits.GiB }, { "M", limits.MiB }, { "K", limits.KiB } } do
		if v % u[2] == 0 then return ("%d%s"):format(v // u[2], u[1]) end
	end
	return tostring(v)
end

-- an option that sets the limit `name` (sbx.limits)
local function limit(opt, arg, what, name)
	return { opt, arg, ("%s (default %s)"):format(what, typed_default(name)), scripts = "run learn batch",
		set = function(o, typed, as)
			local n, msg = limits.parse(name, typed)
			if not n then refuse("%s %s: %s", as, typed, msg) end
			o.limits[name] = n
		end }
end

-- an output opened now, before the box exists: written later through the
-- directory's descriptor, never through a path the box changed
-- an output file, or "-" for stdout (a copy of descriptor 1 taken now,
-- which no box holds; never a file named "-"; the program's own stdout
-- then goes to stderr, `o.stdout_taken`)
local function output(key)
	return function(o, typed, as)
		local out, msg
		if typed == "-" then
			out, msg = sbx.descriptor(1)
			-- stdout holds what sbxlua writes: the program's goes to stderr
			o.stdout_taken = as
		else
			out, msg = sbx.output(typed)
		end
		if not out then refuse("%s %s: %s", as, typed, reason(msg)) end
		if o[key] then o[key]:close() end
		o[key] = out
	end
end

-- one of a list of words
-- a setter of o[key]: the value typed, refused with words unless ok(typed)
-- holds (ok asks the value's owner)
local function checked(key, ok, words)
	return function(o, typed, as)
		if not ok(typed) then refuse("%s %s: %s", as, typed, words) end
		o[key] = typed
	end
end

local function one_of(key, words)
	local set = {}
	for w in words:gmatch("%S+") do set[w] = true end
	return function(o, typed, as)
		if not set[typed] then
			local list = {}
			for w in words:gmatch("%S+") do list[#list + 1] = w end
			refuse("%s %s: expected %s or %s", as, typed, table.concat(list, ", ", 1, #list - 1), list[#list])
		end
		o[key] = typed
	end
end

local function flag(key)
	return function(o) o[key] = true end
end

local function value(key)
	return function(o, typed) o[key] = typed end
end

-- ---- the tree ----

local TREE = {
	{ "--ro", "PATH[:DEST]", "bind a host path read-only (at DEST, default PATH)", scripts = "run learn",
		set = function(o, typed, as)
			local real, dst = host_path(as, typed)
			table.insert(o.ro, { src = real, dst = clean_box_path(as, typed, dst or real) })
		end },
	{ "--rw", "PATH[:DEST]", "bind a host directory writable (e.g. --rw .:/work)", scripts = "run learn",
		set = function(o, typed, as)
			local real, dst = host_path(as, typed)
			dst = clean_box_path(as, typed, dst or real)
			local ok, why = require("sbx.stdbox").check_writable(real)
			if not ok then refuse("--rw %s: %s", typed, why) end
			table.insert(o.rw, { src = real, dst = dst })
		end },
	{ "--socket", "PATH[:DEST]", "let the box connect to the host unix socket PATH (at DEST, "
		.. "default PATH) as the box's host id; every other socket in a --ro or --rw bind is covered",
		scripts = "run",
		set = function(o, typed, as)
			-- a grant: the box may talk to this daemon (as its host id)
			local real, dst = host_path(as, typed)
			local st = sbx.lstat(real)
			if not st or st.type ~= "socket" then refuse("--socket %s: not a unix socket", typed) end
			table.insert(o.socket, { src = real, dst = clean_box_path(as, typed, dst or real) })
		end },
	{ "--tmp", "DEST[:SIZE]", "a private tmpfs at DEST", scripts = "run",
		set = function(o, typed, as)
			local dst, size = split_dest(typed)
			local t = { dst = clean_box_path(as, typed, dst) }
			if size then
				local n, msg = limits.parse("tmp", size)
				if not n then refuse("--tmp %s: %s", typed, msg) end
				t.size = n
			end
			table.insert(o.tmp, t)
		end },
	{ "--env", "K=V", "set a variable (the environment is otherwise fixed)", scripts = "run learn",
		set = function(o, typed)
			local k, v = typed:match("^([^=]+)=(.*)$")
			if not k then refuse("--env %s: expected K=V", typed) end
			o.env[k] = v
		end },
	{ "--cwd", "DIR", "working directory inside the box (default /work)", scripts = "run learn",
		set = function(o, typed, as) o.cwd = clean_box_path(as, typed, typed) end },
}

-- ---- the limits ----

local LIMITS = {
	limit("--wall", "S", "wall-clock limit in seconds", "wall"),
	limit("--cpu", "S", "CPU time of the whole box in seconds", "cpu"),
	limit("--mem", "SIZE", "memory limit", "memory"),
	limit("--pids", "N", "task limit", "tasks"),
	limit("--output-limit", "SIZE", "output limit per stream", "output"),
	limit("--nofile", "N", "open files per process", "open_files"),
	limit("--fsize", "SIZE", "file size limit", "file_size"),
	limit("--tmp-size", "SIZE", "size of /tmp", "tmp"),
	{ "--cgroup", "DIR|none", "cgroup v2 base for the box's cgroup (default: the environment's "
		.. "SBXLUA_CGROUP, else found)", scripts = "run learn batch check",
		set = function(o, typed)
			if typed == "none" then
				o.cgroup = false
			elseif typed:sub(1, 1) ~= "/" then
				refuse("--cgroup %s: expected an absolute directory or none", typed)
			else
				o.cgroup = typed
			end
		end },
}

-- ---- the walls, the network, the input ----

local WALLS = {
	{ "--net", "none|host|sink", "network: an empty namespace (default), the host's, or a sink "
		.. "(names resolve to " .. sink.address .. ", every connect to a caught port is recorded; "
		.. "nothing leaves)", scripts = "run", set = one_of("net", "none host sink") },
	{ "--sink-ports", "LIST", "with --net sink: the TCP and UDP ports caught beside "
		.. table.concat(sink.always, ",") .. ", e.g. 25,6667 (default " .. table.concat(sink.ports, ",") .. ")",
		scripts = "run", requires = { net = "sink" },
		set = function(o, typed)
			local ports, why = sink.parse_ports(typed)
			if not ports then refuse("--sink-ports %s: %s", typed, why) end
			o.sink_ports = ports
		end },
	{ "--host-id", "N", "a root caller's box's host uid and gid (default 1879048192; refused if "
		.. "an account or process has it)", scripts = "run",
		set = function(o, typed)
			local n = tonumber(typed)
			if not n or math.type(n) ~= "integer" then refuse("--host-id %s: expected a whole number", typed) end
			o.host_id = n
		end },
	{ "--stdin", "FILE|-|none", "stdin from FILE, a regular file (no symlink on its path), - for "
		.. "sbxlua's own stdin, or none for nothing (default: sbxlua's own stdin when it is a pipe or "
		.. "a regular file, a terminal of the box's own when it is a terminal, else nothing)",
		scripts = "run",
		set = function(o, typed)
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
	{ "--profile", "NAME", "seccomp profile: default, strict, watch, none, or a file (default: "
		.. "default; in the analysis box, watch)", scripts = "run batch",
		set = checked("profile", function(typed) return require("sbx.profile").is_name(typed) end,
			"expected a profile's name (letters, digits, _ and -) or a file's path") },
	{ "--mode", "stop|deny|log", "a call the profile sends to sbxlua and refuses: stop ends the box "
		.. "(exit 125), deny fails the call and goes on, log lets it through; each is reported "
		.. "(default: the profile's own, else deny)", scripts = "run", set = one_of("mode", "stop deny log") },
	{ "--tty-raw", nil, "pass the program's output to the caller's terminal unfiltered (by "
		.. "default, when stdout or stderr is a terminal, only what draws reaches it: text, colours, "
		.. "cursor movement; no OSC, DCS, APC, PM or SOS string, no query the terminal answers on its "
		.. "input)", scripts = "run", set = flag("tty_raw") },
}

-- ---- what builds the box ----

local BACKENDS = {
	{ "--backend", "ns|process|oci", "what builds the box: the namespace box (default), no namespace "
		.. "at all (limits and filters only), or an OCI runtime; never chosen by sbxlua", scripts = "run",
		set = checked("backend", function(typed) return require("sbx.backend").check(typed) end,
			"expected ns, process or oci") },
	{ "--runtime", "runc|crun|podman", "the OCI runtime (default: runc, else crun); podman runs an "
		.. "--image (with runc, never pulling)", scripts = "run", set = one_of("runtime", "runc crun podman") },
	{ "--rootfs", "DIR", "the namespace box's root: a directory root (read-only) instead of the "
		.. "host's /usr", scripts = "run",
		set = function(o, typed)
			local real, msg = require("sbx.stdbox").host_path(typed)
			if not real then refuse("--rootfs %s: %s", typed, msg) end
			o.rootfs = real
		end },
	{ "--image", "DIR@sha256:HEX", "the namespace box's root: the image whose manifest has that "
		.. "digest in the local OCI image layout DIR (never pulled; every blob's sha256 checked; "
		.. "unpacked once, in a box, into the caller's cache)", scripts = "run", set = value("image") },
}

-- ---- what a run records and says ----

local RECORD = {
	{ "--keep", "DIR", "copy the regular files the program left in the box's writable places into "
		.. "DIR (made 0700; an existing DIR must be empty and the caller's; names made safe, sizes "
		.. "capped)", scripts = "run", set = value("keep") },
	{ "--decoys", nil, "place decoy credentials in the box (~/.ssh/id_rsa, ~/.aws/credentials, a "
		.. "browser's Login Data, /etc/shadow), each with a marker random per run; a marker found in "
		.. "a written file or captured output is noted", scripts = "run", set = flag("decoys") },
	{ "--report", "FILE", "also write the report to FILE (- for stdout, and the program's own stdout "
		.. "goes to stderr)", scripts = "run", set = output("report") },
	{ "--json", "FILE", "write the structured result to FILE as JSON (- for stdout, and the program's "
		.. "own stdout goes to stderr; docs/schema/run.schema.json)", scripts = "run", set = output("json") },
	{ "--pcap", "FILE", "write the network sink's DNS, TCP and UDP conversations to FILE as a capture "
		.. "(libpcap's format, raw IPv4; packets synthesised from what the sink recorded)", scripts = "run",
		requires = { net = "sink" }, set = output("pcap") },
	{ "--html", "FILE", "write the run as one self-contained HTML page to FILE (no script, nothing "
		.. "loaded from elsewhere)", scripts = "run", set = output("html") },
	{ "--report-fd", "N", "also write the report on descriptor N (3 or above, open in the caller), "
		.. "which no box ever holds: a channel no program can forge (on stderr, a program's own "
		.. "lines can look like the report's)", scripts = "run",
		set = function(o, typed, as)
			local n = tonumber(typed)
			if math.type(n) ~= "integer" or n < 3 or n > 1 << 20 then
				refuse("%s %s: expected a descriptor number, 3 or above (0 to 2 are the box's own streams)",
					as, typed)
			end
			local f, msg = sbx.descriptor(n)
			if not f then refuse("%s %s: not open (%s)", as, typed, reason(msg)) end
			if o.report_fd then o.report_fd:close() end
			o.report_fd = f
		end },
	{ "--explore", nil, "the analysis box: record everything, change nothing (the watch profile: the "
		.. "default box's refusals, every open, exec, connect, process, file change, signal and memfd "
		.. "recorded and let through; --net sink; --decoys; --behaviour; a PROG that is not executable "
		.. "run by its content: a #! line's interpreter, an ELF file's loader), then the verdict; an "
		.. "option typed beside it wins.  The analysis box ends when its last process has ended (or "
		.. "at --wall), not with PROG: what PROG leaves running is followed, and the report says what "
		.. "ran on.  Without --explore the box ends with PROG and kills what it left",
		scripts = "run", set = flag("explore") },
	{ "--sleep-skip", "S", ("in the analysis box, skip a sleep longer than S seconds once every task "
		.. "of the box waits, as if it had completed (default %g; 0: none; docs/standard-box.md)"):format(
		require("sbx.stdbox").ANALYSIS.sleep_skip), scripts = "run batch",
		set = function(o, typed, as)
			local n = tonumber(typed)
			local max = core.sleep_skip_max
			if not n or n ~= n or n < 0 or n > max then
				refuse("%s %s: expected seconds from 0 to %d", as, typed, max)
			end
			o.sleep_skip = n
		end },
	{ "--behaviour", nil, "print the behaviour summary (files, processes, network, refused "
		.. "calls, behash) to stderr after the report", scripts = "run", set = flag("behaviour") },
	{ "-v --verbose", nil, "add the isolation report to the report", scripts = "run", set = flag("verbose") },
}

-- ---- a script's product ----

local PRODUCT = {
	{ "-o --output", "FILE", {
		learn = "write the profile to FILE (default: stdout); never replaced unless --force, never "
			.. "a symlink, never in a --rw directory",
		batch = "append the JSON lines to FILE (default stdout); programs FILE already records with "
			.. "the same options are skipped" }, scripts = "learn batch", set = value("output") },
	{ "--html", "DIR", "write one self-contained HTML page per program into DIR (made 0700 when "
		.. "absent), each named by a hash, and index.html linking them", scripts = "batch",
		conflicts = { merge = "the pages of a batch's runs" }, set = function(o, typed, as)
			local d, msg = require("sbx.html").open_dir(typed)
			if not d then refuse("%s %s: %s", as, typed, reason(msg)) end
			if o.html then o.html:close() end
			o.html = d
		end },
	{ "--force", nil, "replace FILE when it is a regular file", scripts = "learn", set = flag("force") },
	{ "--union", "FILE", "add what FILE (a learned profile) allows: nothing it allows is removed",
		scripts = "learn", set = value("union") },
	{ "-j --jobs", "N", "programs at once, over as many worker processes (default: the cores sbxlua may use; at most 64)",
		scripts = "batch",
		set = function(o, typed, as)
			local n, max = tonumber(typed), require("sbx.batch").max_jobs
			if math.type(n) ~= "integer" or n < 1 or n > max then
				refuse("%s %s: expected a whole number from 1 to %d", as, typed, max)
			end
			o.jobs = n
		end },
	{ "--rules", "FILE", "verdict rules: a Lua file returning a list of rules, a Sigma rule (.yml), "
		.. "or a directory of them (repeatable)", scripts = "batch",
		set = function(o, typed) table.insert(o.rules, typed) end },
	{ "--no-default-rules", nil, "only the rules of --rules", scripts = "batch", set = flag("no_default") },
	{ "--yara", "FILE|DIR", "YARA rules (a .yar file, or a directory of .yar and .yara files; "
		.. "repeatable), compiled once and scanned in the confined inspection worker over the sample, "
		.. "each dropped file and each memory payload (batch.lua: one box a worker); each match is a finding "
		.. "(with --explore, batch.lua: in the verdict)", scripts = "run batch",
		set = function(o, typed)
			o.yara = o.yara or {}
			table.insert(o.yara, typed)
		end },
	-- (the default is sbx.verdict.BUDGET's, not loaded here: a plain run
	-- never reads the verdict's modules; tests/judge_spec.lua checks the two)
	{ "--judge-budget", "S", "the CPU seconds all the verdict rules together may take over one run "
		.. "(default 30); the rules left out are named, and the verdict is never clean then",
		scripts = "run batch",
		set = function(o, typed, as)
			local n = tonumber(typed)
			if not n or n ~= n or n <= 0 or n > 86400 then
				refuse("%s %s: expected seconds above 0, up to 86400", as, typed)
			end
			o.judge_budget = n
		end },
	{ "--shard", "K/N", "only the K-th of N deterministic parts of the inputs", scripts = "batch",
		set = function(o, typed, as)
			local k, n = require("sbx.batch").parse_shard(typed)
			if not k then refuse("%s %s: %s", as, typed, n) end
			o.shard = { k, n }
		end },
	{ "--jail", nil, "run each program in the plain standard box (the default profile, no network "
		.. "sink, no decoys: only refusals and limits are recorded) instead of the analysis box; "
		.. "the jail ends with its program and kills what it left, the analysis box follows every "
		.. "process to its end (or --wall)",
		scripts = "batch", set = flag("jail") },
	{ "--merge", nil, "merge the JSON-lines files PATH... into one (sorted, each record once)",
		scripts = "batch", set = flag("merge") },
	{ "--progress", "auto|always|never", "a progress line on stderr (default auto: on a terminal)",
		scripts = "batch", set = one_of("progress", "auto always never") },
	{ "-q --quiet", nil, "no progress and no summary", scripts = "batch", set = flag("quiet") },
}

-- Old spellings: the option each now is, by script.  Said once per use.
local RENAMED = {
	{ "--out", "X", run = "--output-limit", batch = "--output" },
}

local GROUPS = { PRODUCT, TREE, LIMITS, WALLS, BACKENDS, RECORD }

-- every option's record, in the groups' order, and each by its long name
local ALL, by_name = {}, {}
for _, g in ipairs(GROUPS) do
	for _, opt in ipairs(g) do
		ALL[#ALL + 1] = opt
		by_name[opt[1]:match("%-%-%S+$")] = opt
	end
end

-- the records of the options script takes (their `scripts`), in ALL's
-- order: made once per script
local of_script = {}
local function taken(script)
	local list = of_script[script]
	if not list then
		list = {}
		for _, opt in ipairs(ALL) do
			if (" " .. opt.scripts .. " "):find(" " .. script .. " ", 1, true) then list[#list + 1] = opt end
		end
		of_script[script] = list
	end
	return list
end

-- the old spelling of a renamed option, for script
local function renamed(old, script)
	local now = by_name[old[script]]
	return { old[1], now[2], nil, hidden = true,
		function(o, typed, as)
			io.stderr:write(("sbxlua: %s is now %s (the old name still works)\n"):format(as, old[script]))
			now.set(o, typed, old[script])
		end }
end

--- The arguments of a script that runs one program: PROG and ARGS.
M.PROGRAM = { { "PROG", "the program: a path, or a name found in the box's PATH" },
	{ "ARGS", "its arguments", "*" } }

--- The options a script takes, as `sbx.cli` reads them: `{ "--name",
-- argname, help, setter }` each.
-- @tparam string script `run`, `learn`, `batch` or `check`
-- @treturn table
function M.of(script)
	local list = {}
	for _, opt in ipairs(taken(script)) do
		local help = type(opt[3]) == "table" and opt[3][script] or opt[3]
		list[#list + 1] = { opt[1], opt[2], help, opt.set }
	end
	for _, old in ipairs(RENAMED) do
		if old[script] then list[#list + 1] = renamed(old, script) end
	end
	return list
end

--- The options a script's help lists, for its man page and completions:
-- those of `M.of` not hidden, then `-h --help`; `{ "--name", argname,
-- help }` each.
-- @tparam string script `run`, `learn`, `batch` or `check`
-- @treturn table
function M.shown(script)
	argcheck(script, "string", 1, "shown")
	local list = {}
	for _, o in ipairs(M.of(script)) do
		if not o.hidden then list[#list + 1] = { o[1], o[2], o[3] } end
	end
	list[#list + 1] = { "-h --help", nil, "print the script's help and exit" }
	return list
end

-- the field each option sets: its long name, `-` as `_` (`--sink-ports`:
-- `sink_ports`)
local field_of = {}
for _, opt in ipairs(ALL) do field_of[opt] = opt[1]:match("%-%-(%S+)$"):gsub("%-", "_") end

-- the words refusing opt, set in o, for a `requires` or `conflicts` of
-- its record that o does not meet; nil when it meets them all
local function unmet(opt, o)
	local name = opt[1]:match("%-%-%S+$")
	for k, want in pairs(opt.requires or {}) do
		if o[k] ~= want then return ("%s: only with --%s %s"):format(name, k:gsub("_", "-"), want) end
	end
	for k, why in pairs(opt.conflicts or {}) do
		if o[k] then return ("%s: %s, not with --%s"):format(name, why, k:gsub("_", "-")) end
	end
	return nil
end

--- The first option of o that another option's setting (or its absence)
-- makes meaningless for the script: an option's record `requires` (field ->
-- the value it needs: `--pcap` needs `net` "sink") or `conflicts` (field
-- -> why not both).  Read after the script's own defaults are in o (the
-- analysis box's `net` "sink").  The one table of these rules is the
-- option records.
-- @tparam string script `run`, `learn`, `batch` or `check`
-- @tparam table o the options
-- @return nil, or the refusal's words
function M.refused(script, o)
	if type(script) ~= "string" or type(o) ~= "table" then
		error("bad argument to 'refused' (a script's name and its options expected)", 2)
	end
	for _, opt in ipairs(taken(script)) do
		local v = o[field_of[opt]]
		if v ~= nil and v ~= false then
			local no = unmet(opt, o)
			if no then return no end
		end
	end
	return nil
end

--- The options table of a script's command line: each option's setter
-- applied in the order typed, the environment's `SBXLUA_CGROUP` (read
-- here only) when no `--cgroup` was typed.
-- @tparam table t the script's parser table (`sbx.cli.parser`), its
--  `options` from `M.of`
-- @tparam table argv
-- @tparam[opt] integer code the exit status of a usage error (126)
-- @treturn table o
-- @treturn table what `sbx.cli.parse` returned (the arguments)
function M.parse(t, argv, code)
	local args = cli.parse(t, argv, code or report.EXIT_CANNOT)
	local o = cli.apply(t.options, args,
		{ ro = {}, rw = {}, socket = {}, tmp = {}, env = {}, limits = {}, rules = {} })
	local env = os.getenv("SBXLUA_CGROUP")
	if o.cgroup == nil and env and env ~= "" then o.cgroup = env ~= "none" and env or false end
	return o, args
end


--- The options table of a script that runs one program (its arguments
-- `M.PROGRAM`), as `M.parse` makes it, with the program in `prog` and its
-- arguments in `args`.
-- @tparam table t the script's parser table
-- @tparam table argv
-- @treturn table o
function M.parse_program(t, argv)
	argcheck(t, "table", 1, "parse_program")
	argcheck(argv, "table", 2, "parse_program")
	local o, args = M.parse(t, argv)
	o.prog, o.args = args.PROG, args.ARGS
	return o
end

return M
