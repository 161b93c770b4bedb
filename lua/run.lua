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
-- the sample's hashes and type (sbx.sample), and its bytes, read before
-- the box exists; --yara's compiled rules (sbx.yara) and the private
-- keep directory its scan of the dropped files reads (when no --keep)
local sample, sample_data, yara_set, yara_keep

local refuse, reason = cli.refuse, cli.reason

local CLI = {
	name = "run.lua",
	description = "Runs PROG in the standard box (every namespace, a private read-only root, "
		.. "read-only /usr, a synthetic /etc, private /work and /tmp, no network, no capabilities, "
		.. "no_new_privs, a seccomp filter, Landlock, limits) and writes a report to stderr after "
		.. "the box is gone.",
	epilog = "Exit status: the program's own; 128+N for signal N (a call the filter kills: SIGSYS, "
		.. "159); 124 a limit stopped it; 125 a refusal ended it (--mode stop); 126 the box "
		.. "could not be set up, or the program was found but cannot run; 127 the program "
		.. "was not found.",
	options = options.of("run"),
	arguments = options.PROGRAM,
}

local function parse(argv)
	local o = options.parse_program(CLI, argv)
	if o.explore then
		stdbox.analysis(o)
		o.behaviour = true
	end
	-- an option the backend cannot honour is never silently not done
	local no = backend.refused(o)
	if no then refuse("%s", no) end
	no = options.refused("run", o)
	if no then refuse("%s", no) end
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

-- Writes an output prepared by sbx.output; returns nil, or the line that
-- says why not (for stderr and the report's channels).
local function write_out(opt, out, data)
	-- an output file by its path, a descriptor as the core names it
	local name = out.path or tostring(out):match("%((.*)%)$")
	local ok, msg = out:write(data)
	out:close()
	if ok then return nil end
	return "sbxlua: " .. report.escape(("%s %s: %s"):format(opt, name, reason(msg))) .. "\n"
end

-- The sink's capture (sbx.pcap) into --pcap FILE, and into the --keep
-- directory as sink.pcap (no written place is named so: the kept files
-- are under their places' names); sets info.pcap, the path the result
-- names (--pcap's first), once written.  Adds to said the line of an
-- output asked for that could not be written.
local function write_pcap(o, r, info, said)
	-- the operator's --keep directory only: --yara's private copies are
	-- removed once scanned, and a capture there would be named but gone
	local keep = o.keep ~= yara_keep and o.keep or nil
	if not r.sink or not (o.pcap or keep) then return end
	local bytes, left_out = pcap.file(r.sink)
	local kept, msg
	if keep then
		kept, msg = sbx.output(keep .. "/sink.pcap")
		if not kept then
			said[#said + 1] = "sbxlua: " .. report.escape(("--keep %s/sink.pcap: %s"):format(keep, reason(msg)))
				.. "\n"
		end
	end
	for _, out in ipairs { o.pcap or false, kept or false } do
		local why = out and write_out(out == kept and "--keep" or "--pcap", out, bytes)
		if out and not why then
			info.pcap, info.pcap_left_out = info.pcap or out.path, left_out
		elseif why then
			said[#said + 1] = why
		end
	end
end

-- The box's terminal and its stdin, set in o: an interactive program
-- gets a terminal of the box's own, never the caller's (TIOCSTI into the
-- caller's terminal must be impossible)
local function settle_stdin(o)
	o.pty = o.stdin == nil and sbx.isatty(0)
	if o.stdin == nil and not o.pty then o.stdin = inherited_stdin() end
	o.stdin = o.stdin or nil
end

-- Whether an output object is the caller's terminal: "-" (a copy of
-- descriptor 1) or --report-fd N, the descriptor it names.
local function is_terminal(out)
	if out.path then return false end
	local n = tonumber(tostring(out):match("(%d+)%)$"))
	return n ~= nil and sbx.isatty(n)
end

-- Writes what sbxlua says (the report, the behaviour, the verdict and
-- its findings, every note) to one of the report's channels; on a terminal,
-- after the reset that undoes whatever the program left there
-- (report.TTY_RESET).  Returns nil, or the line that says why not.
local function write_said(opt, out, text)
	return write_out(opt, out, (is_terminal(out) and report.TTY_RESET or "") .. text)
end

-- The structured result, judged under --explore; the JSON and the HTML
-- page written (a line said for each that could not be).
local function structured(o, r, info, events, verified)
	local res = pipeline.result(r, info, events, verified)
	res.sample = sample
	local judged = rules
	if yara_set then
		local extra
		res.yara, extra = yara_set:over_run(sample, sample_data, res, o.keep)
		judged = {}
		for _, x in ipairs(rules or {}) do judged[#judged + 1] = x end
		for _, x in ipairs(extra) do judged[#judged + 1] = x end
	end
	if o.explore then
		res.verdict = verdict.judge(res, judged, { budget = o.judge_budget })
		behaviour.judged(res.behaviour, res.verdict)
	end
	if res.behaviour then res.behaviour.has_html_report = o.html ~= nil end
	local outs = {}
	if o.json then outs[#outs + 1] = { "--json", o.json, json.encode(res) .. "\n" } end
	if o.html then outs[#outs + 1] = { "--html", o.html, html.page(res, { program = o.prog, args = o.args }) } end
	local failed = {}
	for _, w in ipairs(outs) do failed[#failed + 1] = write_out(w[1], w[2], w[3]) end
	return res, failed
end

-- The report of a run: everything sbxlua says goes to stderr, and the
-- same bytes to --report and --report-fd (channels no program can write:
-- docs/standard-box.md); returns the exit code.
local function report_run(o, r, info)
	-- the box is gone: the set-id sweep, the written files, the decoys'
	-- markers, the events and the verified claims (sbx.pipeline)
	local events, verified = pipeline.collect(r, info)
	local said = { report.text(r, info, events, verified, o.verbose) }
	if o.verbose then said[#said + 1] = report.sink_text(r) end
	said[#said + 1] = report.scripts_text(r, o.verbose)
	-- the backend that could not be built here, and those that could run
	local why = backend.refusal(r, info)
	if why then said[#said + 1] = "sbxlua: " .. report.escape(why) .. "\n" end
	local n0 = #said
	write_pcap(o, r, info, said)
	local failed = #said - n0
	if o.json or o.behaviour or o.html or o.yara then
		local res, lines = structured(o, r, info, events, verified)
		if o.behaviour then said[#said + 1] = behaviour.text(res.behaviour) end
		if o.yara and not o.explore then said[#said + 1] = require("sbx.yara").text(res.yara) end
		if o.explore then said[#said + 1] = verdict.text(res.verdict) end
		for _, line in ipairs(lines) do said[#said + 1] = line end
		failed = failed + #lines
	end
	local text = table.concat(said)
	local late = {} -- what could not be written to a report channel
	if o.report then late[#late + 1] = write_said("--report", o.report, text) end
	if o.report_fd then late[#late + 1] = write_said("--report-fd", o.report_fd, text) end
	-- on the terminal, a known state first (whatever the program left
	-- there: report.TTY_RESET); then every report line begins a line,
	-- whatever the program left unfinished on stderr (or on stdout, when
	-- both are the terminal)
	local tty = sbx.isatty(2)
	local open_line = r.stderr_partial or (r.stdout_partial and sbx.isatty(1) and tty)
	io.stderr:write(tty and report.TTY_RESET or "", open_line and "\n" or "", text, table.concat(late))
	-- an output the caller asked for and did not get (the box left
	-- something other than a regular file at its name): 126, whatever the
	-- program's own status was
	if yara_keep then require("sbx.yara").remove_dir(yara_keep) end
	if failed + #late > 0 then return report.EXIT_CANNOT end
	return report.exit_code(events)
end

-- The modules of what the options ask for, before the first box (above):
-- the verdict's rules, the backend and root chosen.  (The
-- backends' refusal loads sbx.backend.oci only when the namespace box
-- could not even be cloned: nothing ran.)
local function load_modules(o)
	if o.yara then
		local yara = require "sbx.yara"
		local set, msg = yara.compile(o.yara)
		if not set then refuse("--yara: %s", msg) end
		yara_set = set
		-- the dropped files are scanned from their copies
		if not o.keep then
			yara_keep, msg = yara.private_dir()
			if not yara_keep then refuse("--yara: %s", msg) end
			o.keep = yara_keep
		end
	end
	if o.json then json = require "sbx.json" end
	if o.html then html = require "sbx.html" end
	if o.pcap or o.keep then pcap = require "sbx.pcap" end
	if o.json or o.behaviour or o.html or o.yara then behaviour = require "sbx.behaviour" end

	if o.explore then
		verdict = require "sbx.verdict"
		local msg
		rules, msg = verdict.defaults()
		if not rules then refuse("--explore: the default rules: %s", msg) end
	end
	backend.load(o)
end

local function main(argv)
	local typed = parse(argv)
	load_modules(typed)
	settle_stdin(typed)
	-- from here on, the settled request: read, never written
	local o, err = pipeline.settle(typed)
	if not o and yara_keep then require("sbx.yara").remove_dir(yara_keep) end
	if not o then cli.fail(err) end
	-- the sample's hashes, of its bytes read before the box exists
	if o.json or o.html or o.yara then sample, sample_data = require("sbx.sample").read(o.prog, o.args) end
	-- the memory payloads are scanned by the worker as it types them
	if yara_set then
		local loaded, msg = yara_set:begin_run()
		if not loaded and yara_keep then require("sbx.yara").remove_dir(yara_keep) end
		if not loaded then refuse("--yara: %s", msg) end
	end
	local r, info = pipeline.run(o)
	if not r and o.explore and info.program then
		-- the program never ran (not found, not executable): the
		-- analysis says so, `unknown`, never `clean` (rules/box.lua)
		local text = cli.error_text(info)
		local v = verdict.judge({ outcome = "error", error = text, events = {} }, rules)
		io.stderr:write("sbxlua: ", report.escape(text), "\n", verdict.text(v))
		if yara_keep then require("sbx.yara").remove_dir(yara_keep) end
		os.exit(cli.exit_status(info))
	end
	if yara_keep and not r then require("sbx.yara").remove_dir(yara_keep) end
	if not r then cli.fail(info) end
	return report_run(o, r, info)
end

-- a copy of arg, not table.unpack: the script's own `...` already holds
-- every argument on Lua's stack, which cannot take half a million twice
local argv = {}
for i = 1, #arg do argv[i] = arg[i] end
os.exit(main(argv))
