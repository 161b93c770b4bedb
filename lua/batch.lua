-- batch.lua: evaluate many programs, each in its own standard box, with
-- verdict rules; one JSON line per program.
--   sbxlua batch.lua [options] PATH...
--   sbxlua batch.lua --merge FILE... [--out FILE]
-- Thin: options to the box options and the rules, then sbx.batch's
-- chunks, lines, progress and summary.
local sbx = require "sbx"
local batch = require "sbx.batch"
local verdict = require "sbx.verdict"
local cli = require "sbx.cli"
local opts = require "sbx.options"
local report = require "sbx.report"
local limits = require "sbx.limits"
local pipeline = require "sbx.pipeline"
-- every module before the first box
local stdbox = require "sbx.stdbox"
require "sbx.backend"
require "lfs"

local refuse = cli.refuse

local CLI = {
	name = "batch.lua",
	description = "Runs each program under PATH (files, or directories walked without following "
		.. "symbolic links) in its own standard box, N at a time, judges each run with the verdict "
		.. "rules and writes one JSON line per program, then a summary on stderr.",
	epilog = "Exit status: 0 when every program ran or was recorded before; 130 when interrupted "
		.. "(SIGINT: every line written is whole); 126 for a usage or set-up error.",
	options = opts.of("batch"),
	arguments = { { "PATH", "programs, or directories of programs", "+" } },
}

local function parse(argv)
	local o, args = opts.parse(CLI, argv)
	o.paths = args.PATH
	o.jobs = o.jobs or batch.cores()
	o.progress = o.progress or "auto"
	return o
end

-- The rules (each --rules a Lua or Sigma file, or a directory of them),
-- and a digest of their text; a Sigma rule not supported is said once.
local function load_rules(o)
	local rules, digest = {}, {}
	local paths = {}
	if not o.no_default then paths[1] = verdict.default_path() end
	for _, f in ipairs(o.rules) do paths[#paths + 1] = f end
	for _, f in ipairs(paths) do
		local rs, skipped, d = verdict.load(f)
		if not rs then refuse("--rules %s: %s", f, skipped) end
		for _, r in ipairs(rs) do rules[#rules + 1] = r end
		for _, sk in ipairs(skipped) do
			io.stderr:write(report.escape(("batch: sigma rule not supported: %s: %s: %s"):format(
				tostring(sk.source), tostring(sk.title or sk.id or "?"), tostring(sk.why))) .. "\n")
		end
		digest[#digest + 1] = d
	end
	return rules, digest
end

local function write_line(out, rec)
	local ok, msg = out:write(batch.line(rec))
	if not ok then refuse("--output: %s", tostring(msg)) end
end

local function merge(o)
	local recs, bad = batch.merge(o.paths)
	if not recs then refuse("--merge: %s", tostring(bad)) end
	local out = io.stdout
	if o.output then
		local f, msg = batch.open_out(o.output)
		if not f then refuse("--output %s: %s", o.output, msg) end
		out = f
	end
	out:setvbuf("no")
	for _, r in ipairs(recs) do write_line(out, r) end
	if bad > 0 then io.stderr:write(("batch: %d line(s) not records, left out\n"):format(bad)) end
	if not o.quiet then io.stderr:write(batch.summary_text(batch.summary(recs))) end
	return 0
end

-- The boxes' options shared by every program (the analysis box's unless
-- --jail: sbx.stdbox owns it), with the filter and the explain channel's
-- mode and table from the profile, as run.lua has them; the verdict rules;
-- and the digest of what a record depends on: the same program under
-- other options or rules is another record.
local function base_options(o)
	local base = { ro = {}, rw = {}, socket = {}, tmp = {}, env = {}, limits = o.limits,
		profile = o.profile, stdout = "discard", stderr = "discard", cgroup = o.cgroup }
	if not o.jail then stdbox.analysis(base) end
	local ok, err = pipeline.settle(base)
	if not ok then cli.fail(err) end
	local rules, rule_digest = load_rules(o)
	local lim = assert(limits.resolve(o.limits))
	local options = require("sbx.core").sha256(batch.encode {
		version = sbx.version, profile = base.profile, limits = lim, rules = rule_digest,
		net = base.net or "none", decoys = base.decoys or false })
	return base, rules, options
end

-- The output (stdout, or --out opened to append) and the keys of the
-- records already in it.
local function open_output(o)
	local done = {}
	local out = io.stdout
	if o.output then
		local st = sbx.lstat(o.output)
		if st then
			local recs, _, torn = batch.read_lines(o.output)
			for _, r in ipairs(recs or {}) do done[batch.key(r)] = true end
			if torn then
				io.stderr:write("batch: ", report.escape(o.output), ": its last line is cut (left out)\n")
			end
		end
		local f, omsg = batch.open_out(o.output)
		if not f then refuse("--output %s: %s", o.output, omsg) end
		out = f
		out:setvbuf("no")
		-- the next line starts a line of its own, never the end of a cut one
		local torn = st and select(3, batch.read_lines(o.output))
		if torn then out:write("\n") end
	end
	out:setvbuf("no")
	return out, done
end

-- The programs of paths still to run (each once, none recorded already
-- with the same options), and how many were skipped as recorded.
local function programs_to_run(paths, options, done)
	local todo, skipped = {}, 0
	for _, p in ipairs(paths) do
		local h, herr = batch.hash_file(p)
		if not h then
			io.stderr:write("batch: ", report.escape(("%s: %s"):format(p, herr)), "\n")
		else
			local item = { path = p, sha256 = h, options = options }
			if done[batch.key(item)] then
				skipped = skipped + 1
			else
				done[batch.key(item)] = true
				todo[#todo + 1] = item
			end
		end
	end
	return todo, skipped
end

-- Runs todo in chunks of o.jobs boxes, a line written for each; returns
-- the records and whether the batch was interrupted.
local function run_all(o, todo, base, rules, out)
	local tty = o.progress == "always" or (o.progress == "auto" and sbx.isatty(2))
	local start, recs, verdicts, interrupted = batch.uptime(), {}, {}, false
	local function now() return batch.uptime() - start end
	-- sbxlua's SIGINT outside a run is an error raised at the next Lua
	-- instruction (never inside a write: each line is one call); inside
	-- one, the core stops every box and returns: either way the batch
	-- stops after its whole lines
	local shown = 0
	local ok, err = pcall(batch.run, todo, base, rules, o.jobs, function(rec)
		if rec.interrupted then
			interrupted = true
			return
		end
		write_line(out, rec)
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
		interrupted = true
	end
	if tty and not o.quiet then io.stderr:write("\n") end
	return recs, interrupted
end

local function main(argv)
	local o = parse(argv)
	if o.merge then return merge(o) end
	local base, rules, options = base_options(o)

	local paths, warn = batch.inputs(o.paths)
	if not paths then refuse("%s", warn) end
	for _, w in ipairs(warn) do io.stderr:write("batch: ", report.escape(w), "\n") end
	if o.shard then paths = batch.shard(paths, o.shard[1], o.shard[2]) end

	local out, done = open_output(o)
	local todo, skipped = programs_to_run(paths, options, done)
	local recs, interrupted = run_all(o, todo, base, rules, out)
	if not o.quiet then
		io.stderr:write(batch.summary_text(batch.summary(recs)))
		if skipped > 0 then io.stderr:write(("batch: skipped %d (recorded already with the same options)\n"):format(skipped)) end
	end
	if out ~= io.stdout then out:close() end
	if interrupted then
		io.stderr:write("batch: interrupted\n")
		return 130
	end
	return 0
end

local argv = {}
for i = 1, #arg do argv[i] = arg[i] end
os.exit(main(argv))
