-- SPDX-License-Identifier: MIT
-- run.lua: run one program in the standard box and print an exact report.
--   sbxlua run.lua [options] PROG [ARGS...]
-- Thin: the options to the standard box's options (a table, parsed by
-- sbx.cli), the facade's run, the report and the exit code.
local sbx = require "sbx"
local stdbox = require "sbx.stdbox"
local cli = require "sbx.cli"
local options = require "sbx.options"
local report = require "sbx.report"
-- every module before the first box: a box may write into the caller's
-- directory, and nothing is loaded after it has run (those only some runs
-- use: load_modules, once the options are known)
local backend = require "sbx.backend"
local pipeline = require "sbx.pipeline"
local behaviour, json, verdict, rules, html, pcap

local refuse, reason = cli.refuse, cli.reason

local CLI = {
	name = "run.lua",
	description = "Runs PROG in the standard box (every namespace, a private read-only root, "
		.. "read-only /usr, a synthetic /etc, private /work and /tmp, no network, no capabilities, "
		.. "no_new_privs, a seccomp filter, Landlock, limits) and writes a report to stderr after "
		.. "the box is gone.",
	epilog = "Exit status: the program's own; 128+N for signal N (a call the filter kills: SIGSYS, "
		.. "159); 124 a limit stopped it; 125 a refusal ended it (--mode stop); 126 the box "
		.. "could not be set up.",
	options = options.of("run"),
	arguments = options.PROGRAM,
}

local function parse(argv)
	local o, args = options.parse(CLI, argv)
	o.prog, o.args = args.PROG, args.ARGS
	if o.explore then
		stdbox.analysis(o)
		o.behaviour = true
	end
	-- an option the backend cannot honour is never silently not done
	local no = backend.refused(o)
	if no then refuse("%s", no) end
	if o.sink_ports and o.net ~= "sink" then refuse("--sink-ports: only with --net sink") end
	if o.pcap and o.net ~= "sink" then refuse("--pcap: only with --net sink") end
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
	-- an output file by its path, a descriptor as the core names it
	local name = out.path or tostring(out):match("%((.*)%)$")
	local ok, msg = out:write(data)
	out:close()
	if not ok then
		io.stderr:write("sbxlua: ", report.escape(("%s %s: %s"):format(opt, name, reason(msg))), "\n")
	end
	return ok
end

-- The sink's capture (sbx.pcap) into --pcap FILE, and into the --keep
-- directory as sink.pcap (no written place is named so: the kept files
-- are under their places' names); sets info.pcap, the path the result
-- names (--pcap's first), once written.  Returns false when an output
-- asked for could not be written.
local function write_pcap(o, r, info)
	if not r.sink or not (o.pcap or o.keep) then return true end
	local bytes, left_out = pcap.file(r.sink)
	local ok = true
	local kept, msg
	if o.keep then
		kept, msg = sbx.output(o.keep .. "/sink.pcap")
		if not kept then
			io.stderr:write("sbxlua: ", report.escape(("--keep %s/sink.pcap: %s"):format(o.keep, reason(msg))),
				"\n")
			ok = false
		end
	end
	for _, out in ipairs { o.pcap or false, kept or false } do
		if out and write_out(out == kept and "--keep" or "--pcap", out, bytes) then
			info.pcap, info.pcap_left_out = info.pcap or out.path, left_out
		elseif out then
			ok = false
		end
	end
	return ok
end

-- The box's terminal and its stdin, set in o: an interactive program
-- gets a terminal of the box's own, never the caller's (TIOCSTI into the
-- caller's terminal must be impossible)
local function settle_stdin(o)
	o.pty = o.stdin == nil and sbx.isatty(0)
	if o.stdin == nil and not o.pty then o.stdin = inherited_stdin() end
	o.stdin = o.stdin or nil
end

-- The report of a run on stderr, and the outputs o asks for; returns the
-- exit code.
local function report_run(o, r, info)
	-- the box is gone: the set-id sweep, the written files, the decoys'
	-- markers, the events and the verified claims (sbx.pipeline)
	local events, verified = pipeline.collect(r, info)
	local text = report.text(r, info, events, verified, o.verbose)
	if o.verbose then text = text .. report.sink_text(r) end
	-- every report line begins a line, whatever the program left
	-- unfinished on stderr (or on stdout, when both are the terminal)
	local open_line = r.stderr_partial or (r.stdout_partial and sbx.isatty(1) and sbx.isatty(2))
	io.stderr:write(open_line and "\n" or "", text)
	-- the backend that could not be built here, and those that could run
	local why = backend.refusal(r, info)
	if why then io.stderr:write("sbxlua: ", report.escape(why), "\n") end
	local ok = true
	if o.report then ok = write_out("--report", o.report, text) and ok end
	if o.report_fd then ok = write_out("--report-fd", o.report_fd, text) and ok end
	ok = write_pcap(o, r, info) and ok
	if o.json or o.behaviour or o.html then
		local res = pipeline.result(r, info, events, verified)
		if o.explore then
			res.verdict = verdict.judge(res, rules)
			behaviour.judged(res.behaviour, res.verdict)
		end
		if o.behaviour then io.stderr:write(behaviour.text(res.behaviour)) end
		if o.explore then io.stderr:write(verdict.text(res.verdict)) end
		if o.json then ok = write_out("--json", o.json, json.encode(res) .. "\n") and ok end
		if o.html then
			ok = write_out("--html", o.html, html.page(res, { program = o.prog, args = o.args })) and ok
		end
	end
	-- an output the caller asked for and did not get (the box left
	-- something other than a regular file at its name): 126, whatever the
	-- program's own status was
	if not ok then return report.EXIT_CANNOT end
	return report.exit_code(events)
end

-- The modules of what the options ask for, before the first box (above):
-- the verdict's rules, the backend and root chosen.  (The
-- backends' refusal loads sbx.backend.oci only when the namespace box
-- could not even be cloned: nothing ran.)
local function load_modules(o)
	if o.json then json = require "sbx.json" end
	if o.html then html = require "sbx.html" end
	if o.pcap or o.keep then pcap = require "sbx.pcap" end
	if o.json or o.behaviour or o.html then behaviour = require "sbx.behaviour" end
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
	local ok, err = pipeline.settle(o)
	if not ok then cli.fail(err) end
	settle_stdin(o)
	local r, info = pipeline.run(o)
	if not r then cli.fail(info) end
	return report_run(o, r, info)
end

-- a copy of arg, not table.unpack: the script's own `...` already holds
-- every argument on Lua's stack, which cannot take half a million twice
local argv = {}
for i = 1, #arg do argv[i] = arg[i] end
os.exit(main(argv))
