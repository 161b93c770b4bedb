-- SPDX-License-Identifier: MIT
-- batch.lua: evaluate many programs, each in its own standard box, with
-- verdict rules; one JSON line per program.
--   sbxlua batch.lua [options] PATH...
--   sbxlua batch.lua --merge [--output FILE] FILE...
-- Thin: the options (sbx.options), then sbx.batch's set-up, runs, lines
-- and summary; this file prints.
local sbx = require "sbx"
local core = require "sbx.core"
local batch = require "sbx.batch"
local verdict = require "sbx.verdict"
local cli = require "sbx.cli"
local opts = require "sbx.options"
local report = require "sbx.report"
local html = require "sbx.html"
local spread = require "sbx.spread"
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

-- What the batch does with each record: its line (the worker's own text
-- when a worker made it: never encoded again), its page, the progress.
local function sink(o, total)
	local tty = o.progress == "always" or (o.progress == "auto" and sbx.isatty(2))
	local start, recs, verdicts, shown = batch.uptime(), {}, {}, 0
	local s = { recs = recs, tty = tty }
	-- a record is in (as it ends, before its turn to be written)
	function s.arrived(rec)
		if not rec then return end
		verdicts[rec.verdict] = (verdicts[rec.verdict] or 0) + 1
		s.n = (s.n or 0) + 1
		if o.quiet then return end
		if not tty then
			io.stderr:write(("batch: %d/%d %s %s\n"):format(s.n, total,
				report.escape(rec.program), rec.verdict))
		elseif batch.uptime() - start - shown >= 0.1 or s.n == total then
			-- a terminal's line redrawn ten times a second at most
			shown = batch.uptime() - start
			io.stderr:write("\r\27[K", batch.progress(s.n, total, shown, verdicts, o.jobs))
		end
	end
	-- its turn: written
	function s.each(rec, line)
		if line then
			local ok, msg = s.out:write(line, "\n")
			if not ok then refuse("--output: %s", tostring(msg)) end
		else
			-- a record made here (its page too; a worker writes its own)
			write_line(s.out, rec)
			if o.html then html_page(o.html, rec) end
		end
		recs[#recs + 1] = rec
	end
	return s
end

-- Runs todo in this process, at most o.jobs boxes at once (-j 1, or a
-- single program); returns the signal that interrupted it (nil when none).
local function run_here(o, todo, base, rules, s)
	local interrupted
	-- sbxlua's SIGINT outside a run is an error raised at the next Lua
	-- instruction (never inside a write: each line is one call); inside
	-- one, the core stops every box and returns: either way the batch
	-- stops after its whole lines
	-- with YARA rules, one box at a time (sbx.batch.run)
	local ok, err = pcall(batch.run, todo, base, rules, rules.yara and 1 or o.jobs, function(rec)
		if rec.interrupted then
			interrupted = rec.interrupted
			return
		end
		if rec.run.behaviour then rec.run.behaviour.has_html_report = o.html ~= nil end
		s.arrived(rec)
		s.each(rec)
	end)
	if not ok then
		if not verdict.interrupted(err) then error(err, 0) end
		-- the interpreter's own SIGINT (a SIGTERM outside a run ends
		-- sbxlua by its default action: 143 all the same)
		interrupted = interrupted or SIGINT
	end
	return interrupted
end

-- Runs todo over worker processes (sbx.spread): one per core sbxlua may
-- use, at most o.jobs, each running this script again with the same
-- arguments and its share of the o.jobs boxes at once; the records
-- written in todo's order.  Returns the signal that interrupted it (nil
-- when none).
-- argv's options without its PATH operands (a worker is given its
-- programs by the parent, and a command line has room for few), and one
-- path for the parser: each option that takes a value keeps it (`--wall
-- 15`, `--wall=15`); from `--` on, every word is a path.
local function options_only(argv)
	local takes = {}
	for _, opt in ipairs(CLI.options) do
		if opt[2] then
			for name in opt[1]:gmatch("%S+") do takes[name] = true end
		end
	end
	local out, i = {}, 1
	while i <= #argv do
		local a = argv[i]
		if a == "--" then break end
		if a:sub(1, 1) == "-" and a ~= "-" then
			out[#out + 1] = a
			if takes[a] and argv[i + 1] then
				out[#out + 1] = argv[i + 1]
				i = i + 1
			end
		end
		i = i + 1
	end
	out[#out + 1] = "--"
	out[#out + 1] = "."
	return out
end

local function run_spread(o, todo, argv, rules, s)
	-- with YARA rules, a worker a box (sbx.batch.run scans after each box)
	local cores, affinity = batch.cores()
	local count = rules.yara and o.jobs or math.min(o.jobs, cores)
	local each = (o.jobs + count - 1) // count
	-- a worker for each CPU sbxlua may run on: each kept on its own
	-- (`EACH:SLOT`; sbx.core.pin_cpu), its boxes' programs on them all
	local pin = count == affinity
	local given = options_only(argv)
	local function args(slot)
		local a = { "batch.lua", spread.FLAG, pin and ("%d:%d"):format(each, slot) or tostring(each) }
		for _, x in ipairs(given) do a[#a + 1] = x end
		return a
	end
	return spread.run { items = todo, args = args, count = count, ahead = each + 1,
		each = s.each, arrived = s.arrived,
		lost = function(item, why) return batch.lost(item, why, rules) end }
end

-- The worker (sbx.spread): the same options, `jobs` boxes at once, its
-- items from the parent on stdin, each answer a line on stdout; its rules
-- and box options made once, its own pages written.
local function serve(jobs, argv)
	local o = parse(argv)
	local n, slot = tostring(jobs):match("^(%d+):(%d+)$")
	o.jobs = math.tointeger(tonumber(n or jobs))
	if not o.jobs or o.jobs < 1 or o.jobs > batch.max_jobs then refuse("%s: 1 to %d boxes", spread.FLAG, batch.max_jobs) end
	-- kept on one CPU, where the parent gave each worker its own: a
	-- refusal leaves it where the kernel puts it (nothing is lost)
	local k = math.tointeger(tonumber(slot))
	if k then core.pin_cpu(k % 1024) end
	local base, rules = batch.setup(o)
	if not base then cli.fail(rules) end
	-- the samples' YARA matches come with their items (the parent scanned
	-- them); the worker scans each run's dropped files and memory
	-- payloads with the same rules files, compiled here
	if o.yara then
		local yara = require "sbx.yara"
		local set, msg = yara.compile(o.yara)
		if not set then refuse("--yara: %s", msg) end
		if o.jobs ~= 1 then refuse("%s: --yara runs one box a worker", spread.FLAG) end
		rules.yara = set
		for _, r in ipairs(yara.slot_rules()) do rules.list[#rules.list + 1] = r end
	end
	io.stdout:setvbuf("full")
	local ok, err = pcall(batch.run, spread.next_item, base, rules, o.jobs, function(rec, item)
		if not rec.interrupted then
			if rec.run.behaviour then rec.run.behaviour.has_html_report = o.html ~= nil end
			if o.html then html_page(o.html, rec) end
		end
		spread.answer(item, rec)
	end)
	if not ok then
		if verdict.interrupted(err) then return 130 end
		error(err, 0)
	end
	return 0
end

local function main(argv)
	if argv[1] == spread.FLAG then return serve(argv[2], table.move(argv, 3, #argv, 1, {})) end
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
		local mine
		paths, mine = batch.without(paths, o.output)
		say { mine }
	end
	out:setvbuf("no")
	local yara = o.yara and require "sbx.yara"
	local set
	if yara then
		local msg
		set, msg = yara.compile(o.yara)
		if not set then refuse("--yara: %s", msg) end
		options = require("sbx.core").sha256(options .. " yara " .. set.digest)
		rules.yara = set
		for _, r in ipairs(yara.slot_rules()) do rules.list[#rules.list + 1] = r end
	end
	local todo, skipped, unread = batch.todo(paths, options, done)
	say(unread)
	if set then yara.scan_items(set, todo) end
	local s = sink(o, #todo)
	s.out = out
	local interrupted
	if o.jobs > 1 and #todo > 1 then
		interrupted = run_spread(o, todo, argv, rules, s)
	else
		interrupted = run_here(o, todo, base, rules, s)
	end
	if s.tty and not o.quiet then io.stderr:write("\n") end
	local recs = s.recs
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
