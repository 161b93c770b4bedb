-- SPDX-License-Identifier: MIT
-- batch.lua: evaluate many programs, each in its own standard box, with
-- verdict rules; one JSON line per program.
--   sbxlua batch.lua [options] PATH...
--   sbxlua batch.lua --merge [--output FILE] FILE...
-- Thin: the options (sbx.options), then sbx.batch's set-up, runs, lines
-- and summary; this file prints.
local sbx = require "sbx"
local batch = require "sbx.batch"
local verdict = require "sbx.verdict"
local cli = require "sbx.cli"
local opts = require "sbx.options"
local report = require "sbx.report"
local html = require "sbx.html"
-- every module before the first box
require "sbx.backend"
require "lfs"

local refuse = cli.refuse
local SIGINT = { signal = 2, signame = "SIGINT" }

local CLI = {
	name = "batch.lua",
	description = "Runs each program under PATH (files, or directories walked without following "
		.. "symbolic links) in its own standard box, N at a time, judges each run with the verdict "
		.. "rules and writes one JSON line per program, then a summary on stderr.",
	epilog = "Exit status: 0 when every program ran or was recorded before; 128+N when signal N "
		.. "interrupted it (130 SIGINT, 143 SIGTERM, 129 SIGHUP: every line written is whole); 126 "
		.. "for a usage or set-up error (a PATH that does not exist too).",
	options = opts.of("batch"),
	arguments = { { "PATH", "programs, or directories of programs (options may follow them; a PATH "
		.. "that begins with - after --)", "+" } },
	-- the paths are the script's own, not a program's arguments
	operands_anywhere = true,
}

local function parse(argv)
	local o, args = opts.parse(CLI, argv)
	o.paths = args.PATH
	o.jobs = o.jobs or batch.cores()
	o.progress = o.progress or "auto"
	local no = opts.refused("batch", o)
	if no then refuse("%s", no) end
	return o
end

local function write_line(out, rec)
	local ok, msg = out:write(batch.line(rec))
	if not ok then refuse("--output: %s", tostring(msg)) end
end

local function merge(o)
	local recs, bad, lines = batch.merge(o.paths)
	if not recs then refuse("--merge: %s", tostring(bad)) end
	local out = io.stdout
	if o.output then
		local f, msg = batch.open_out(o.output)
		if not f then refuse("--output %s: %s", o.output, msg) end
		out = f
	end
	out:setvbuf("no")
	for _, r in ipairs(recs) do
		local ok, msg = out:write(lines[r], "\n")
		if not ok then refuse("--output: %s", tostring(msg)) end
	end
	if bad > 0 then io.stderr:write(("batch: %d line(s) not records, left out\n"):format(bad)) end
	if not o.quiet then io.stderr:write(batch.summary_text(batch.summary(recs))) end
	return 0
end

-- says each line of a list, escaped
local function say(lines)
	for _, l in ipairs(lines) do io.stderr:write(report.escape("batch: " .. l), "\n") end
end

-- --html DIR: the page of a record; one that cannot be written is said
local function html_page(dir, rec)
	local name, msg = html.write_record(dir, rec)
	if not name then say { "--html: " .. tostring(msg) } end
end

-- Runs todo in chunks of o.jobs boxes, a line written for each; returns
-- the records and the signal that interrupted the batch (nil when none).
local function run_all(o, todo, base, rules, out)
	local tty = o.progress == "always" or (o.progress == "auto" and sbx.isatty(2))
	local start, recs, verdicts, interrupted = batch.uptime(), {}, {}, nil
	local function now() return batch.uptime() - start end
	-- sbxlua's SIGINT outside a run is an error raised at the next Lua
	-- instruction (never inside a write: each line is one call); inside
	-- one, the core stops every box and returns: either way the batch
	-- stops after its whole lines
	local shown = 0
	local ok, err = pcall(batch.run, todo, base, rules, o.jobs, function(rec)
		if rec.interrupted then
			interrupted = rec.interrupted
			return
		end
		if rec.run.behaviour then rec.run.behaviour.has_html_report = o.html ~= nil end
		write_line(out, rec)
		if o.html then html_page(o.html, rec) end
		recs[#recs + 1] = rec
		verdicts[rec.verdict] = (verdicts[rec.verdict] or 0) + 1
		if o.quiet then return end
		if not tty then
			io.stderr:write(("batch: %d/%d %s %s\n"):format(#recs, #todo,
				report.escape(rec.program), rec.verdict))
		elseif now() - shown >= 0.1 or #recs == #todo then
			-- a terminal's line redrawn ten times a second at most
			shown = now()
			io.stderr:write("\r\27[K", batch.progress(#recs, #todo, shown, verdicts))
		end
	end)
	if not ok then
		if not verdict.interrupted(err) then error(err, 0) end
		-- the interpreter's own SIGINT (a SIGTERM outside a run ends
		-- sbxlua by its default action: 143 all the same)
		interrupted = interrupted or SIGINT
	end
	if tty and not o.quiet then io.stderr:write("\n") end
	return recs, interrupted
end

local function main(argv)
	local o = parse(argv)
	if o.merge then return merge(o) end
	local base, rules, options, notes = batch.setup(o)
	if not base then cli.fail(rules) end
	say(notes)
	local paths, warn = batch.inputs(o.paths)
	if not paths then refuse("%s", warn) end
	say(warn)
	if o.shard then paths = batch.shard(paths, o.shard[1], o.shard[2]) end
	local out, done = io.stdout, {}
	if o.output then
		local cut
		out, done, cut = batch.resume(o.output)
		if not out then refuse("--output %s: %s", o.output, done) end
		if cut then say { o.output .. ": its last line is cut (left out)" } end
	end
	out:setvbuf("no")
	local yara = o.yara and require "sbx.yara"
	local set
	if yara then
		local msg
		set, msg = yara.compile(o.yara)
		if not set then refuse("--yara: %s", msg) end
		options = require("sbx.core").sha256(options .. " yara " .. set.digest)
		for _, r in ipairs(yara.slot_rules()) do rules.list[#rules.list + 1] = r end
	end
	local todo, skipped, unread = batch.todo(paths, options, done)
	say(unread)
	if set then yara.scan_items(set, todo) end
	local recs, interrupted = run_all(o, todo, base, rules, out)
	if not o.quiet then
		io.stderr:write(batch.summary_text(batch.summary(recs)))
		if skipped > 0 then say { ("skipped %d (recorded already with the same options)"):format(skipped) } end
	end
	if o.html then
		local ok, msg = o.html:write("index.html", html.index(recs))
		if not ok then say { "--html: " .. tostring(msg) } end
	end
	if out ~= io.stdout then out:close() end
	if interrupted then
		io.stderr:write(("batch: interrupted (%s)\n"):format(interrupted.signame))
		return 128 + interrupted.signal
	end
	return 0
end

local argv = {}
for i = 1, #arg do argv[i] = arg[i] end
os.exit(main(argv))
