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
local report = require "sbx.report"
local limits = require "sbx.limits"
local profile = require "sbx.profile"
-- every module before the first box
local stdbox = require "sbx.stdbox"
require "sbx.backend"
require "lfs"

local refuse = cli.refuse

-- option -> the limit it sets
local LIMIT_OPTS = {
	{ "--wall", "S", "wall-clock limit per program in seconds (default 60)", "wall" },
	{ "--cpu", "S", "CPU time per program (default 30)", "cpu" },
	{ "--mem", "SIZE", "memory limit per program (default 512M)", "memory" },
	{ "--pids", "N", "task limit per program (default 128)", "tasks" },
	{ "--output-limit", "SIZE", "output limit per stream per program (default 16M)", "output" },
	{ "--nofile", "N", "open files per process (default 256)", "open_files" },
	{ "--fsize", "SIZE", "file size limit (default 64M)", "file_size" },
	{ "--tmp-size", "SIZE", "size of /tmp (default 64M)", "tmp" },
}

local OPTIONS = {
	{ "-j --jobs", "N", "programs at once, from one process (default: the number of cores; at most 64)" },
	{ "--out", "FILE", "append the JSON lines to FILE (default stdout); programs FILE already "
		.. "records with the same options are skipped" },
	{ "--rules", "FILE", "verdict rules (a Lua file returning a list of rules; repeatable)" },
	{ "--no-default-rules", nil, "only the rules of --rules" },
	{ "--shard", "K/N", "only the K-th of N deterministic parts of the inputs" },
	{ "--profile", "NAME", "seccomp profile: watch, default, strict, none, or a file (default: watch; "
		.. "with --jail, default)" },
	{ "--jail", nil, "run each program in the plain standard box (the default profile, no network "
		.. "sink, no decoys: only refusals and limits are recorded) instead of the analysis box" },
	{ "--cgroup", "DIR|none", "cgroup v2 base for the boxes' cgroups (default: found)" },
	{ "--merge", nil, "merge the JSON-lines files PATH... into one (sorted, each record once)" },
	{ "--progress", "auto|always|never", "a progress line on stderr (default auto: on a terminal)" },
	{ "-q --quiet", nil, "no progress and no summary" },
}
for _, o in ipairs(LIMIT_OPTS) do OPTIONS[#OPTIONS + 1] = o end

local CLI = {
	name = "batch.lua",
	description = "Runs each program under PATH (files, or directories walked without following "
		.. "symbolic links) in its own standard box, N at a time, judges each run with the verdict "
		.. "rules and writes one JSON line per program, then a summary on stderr.",
	epilog = "Exit status: 0 when every program ran or was recorded before; 130 when interrupted "
		.. "(SIGINT: every line written is whole); 126 for a usage or set-up error.",
	options = OPTIONS,
	arguments = { { "PATH", "programs, or directories of programs", "+" } },
}

local function one(args, name)
	local v = args[name]
	if type(v) == "table" then return v[#v] end
	return nil
end

local function count(args, name)
	local v = args[name]
	return type(v) == "number" and v > 0
end

local function parse(argv)
	local args = cli.parse(CLI, argv, report.EXIT_CANNOT)
	local o = { limits = {}, rules = args.rules or {}, paths = args.PATH }
	for _, l in ipairs(LIMIT_OPTS) do
		local name = l[1]:sub(3):gsub("%-", "_")
		for _, typed in ipairs(args[name] or {}) do
			local n, msg = limits.parse(l[4], typed)
			if not n then refuse("%s %s: %s", l[1], typed, msg) end
			o.limits[l[4]] = n
		end
	end
	local j = one(args, "jobs")
	o.jobs = j and tonumber(j) or batch.cores()
	if math.type(o.jobs) ~= "integer" or o.jobs < 1 or o.jobs > batch.max_jobs then
		refuse("-j %s: expected a whole number from 1 to %d", tostring(j), batch.max_jobs)
	end
	local shard = one(args, "shard")
	if shard then
		local k, n = batch.parse_shard(shard)
		if not k then refuse("--shard %s: %s", shard, n) end
		o.shard = { k, n }
	end
	o.out = one(args, "out")
	o.jail = count(args, "jail")
	o.profile = one(args, "profile")
	local cg = one(args, "cgroup") or os.getenv("SBXLUA_CGROUP")
	if cg == "none" then
		o.cgroup = false
	elseif cg and cg ~= "" then
		if cg:sub(1, 1) ~= "/" then refuse("--cgroup %s: expected an absolute directory or none", cg) end
		o.cgroup = cg
	end
	o.merge = count(args, "merge")
	o.no_default = count(args, "no_default_rules")
	o.quiet = count(args, "quiet")
	o.progress = one(args, "progress") or "auto"
	if o.progress ~= "auto" and o.progress ~= "always" and o.progress ~= "never" then
		refuse("--progress %s: expected auto, always or never", o.progress)
	end
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
	if not ok then refuse("--out: %s", tostring(msg)) end
end

local function merge(o)
	local recs, bad = batch.merge(o.paths)
	if not recs then refuse("--merge: %s", tostring(bad)) end
	local out = io.stdout
	if o.out then
		local f, msg = batch.open_out(o.out)
		if not f then refuse("--out %s: %s", o.out, msg) end
		out = f
	end
	out:setvbuf("no")
	for _, r in ipairs(recs) do write_line(out, r) end
	if bad > 0 then io.stderr:write(("batch: %d line(s) not records, left out\n"):format(bad)) end
	if not o.quiet then io.stderr:write(batch.summary_text(batch.summary(recs))) end
	return 0
end

-- The profile's filter, the rules, and the digest of what a record is
-- made with: the same program under other options or rules is another
-- record.
-- The boxes' options shared by every program (the analysis box's unless
-- --jail: sbx.stdbox owns it), with the filter and the explain channel's
-- mode and table from the profile, as run.lua has them; the verdict rules;
-- and the digest of what a record depends on.
local function base_options(o)
	local base = { ro = {}, rw = {}, socket = {}, tmp = {}, env = {}, limits = o.limits,
		profile = o.profile, stdout = "discard", stderr = "discard", cgroup = o.cgroup }
	if not o.jail then stdbox.analysis(base) end
	base.profile = base.profile or "default"
	local filter, prof = profile.filter(base.profile, { name_refusals = true })
	if filter == nil then
		refuse("--profile %s: %s", base.profile, prof:find("^profile ") and cli.reason(prof) or prof)
	end
	local pmode, ntable = profile.notify(prof)
	base.filter, base.mode, base.notify = filter, pmode or "deny", ntable
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
	if o.out then
		local st = sbx.lstat(o.out)
		if st then
			local recs, _, torn = batch.read_lines(o.out)
			for _, r in ipairs(recs or {}) do done[batch.key(r)] = true end
			if torn then
				io.stderr:write("batch: ", report.escape(o.out), ": its last line is cut (left out)\n")
			end
		end
		local f, omsg = batch.open_out(o.out)
		if not f then refuse("--out %s: %s", o.out, omsg) end
		out = f
		out:setvbuf("no")
		-- the next line starts a line of its own, never the end of a cut one
		local torn = st and select(3, batch.read_lines(o.out))
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
