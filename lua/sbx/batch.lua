-- SPDX-License-Identifier: MIT
--- Batch evaluation: many programs, each in its own standard box, several
-- at once under one supervisor (`sbx.pool`), each run judged by the
-- verdict rules (`sbx.verdict`) and written as one JSON line.
-- The standard box is built and recorded by `sbx.pipeline`, as for `run.lua`.
-- @module sbx.batch
local core = require "sbx.core"
local sbx = require "sbx"
local report = require "sbx.report"
local verdict = require "sbx.verdict"
local behaviour = require "sbx.behaviour"
local pipeline = require "sbx.pipeline"
local cjson = require "cjson"
local json = require "sbx.json"

local M = {}

--- The most boxes `sbx.run_many` runs at once.
M.max_jobs = 64

-- ---- inputs ----

local function load_lfs()
	local ok, lfs = pcall(require, "lfs")
	if ok then return lfs end
	return nil, "lua-filesystem is not installed (Debian package lua-filesystem)"
end

--- The programs under the given paths: a regular file is itself, a
-- directory is walked (no symbolic link followed, neither to a file nor
-- to a directory); sorted by path, each once.
-- @tparam {string,...} paths
-- A path given that is not there at all is an error, not a warning.
-- @return list of paths, list of warnings; or nil, msg
function M.inputs(paths)
	if type(paths) ~= "table" then error("bad argument #1 to 'inputs' (table expected)", 2) end
	local lfs, why = load_lfs()
	if not lfs then return nil, why end
	for _, p in ipairs(paths) do
		if not lfs.symlinkattributes(p, "mode") then return nil, p .. ": no such file" end
	end
	local out, seen, warn = {}, {}, {}
	local function walk(p, depth)
		local mode = lfs.symlinkattributes(p, "mode")
		if mode == "file" then
			if not seen[p] then
				seen[p] = true
				out[#out + 1] = p
			end
		elseif mode == "directory" then
			if depth > 64 then
				warn[#warn + 1] = p .. ": deeper than 64 directories (not walked)"
				return
			end
			local names = {}
			local ok, err = pcall(function()
				for name in lfs.dir(p) do
					if name ~= "." and name ~= ".." then names[#names + 1] = name end
				end
			end)
			if not ok and verdict.interrupted(err) then error(err, 0) end
			if not ok then warn[#warn + 1] = ("%s: %s"):format(p, tostring(err)) end
			table.sort(names)
			for _, name in ipairs(names) do walk((p:gsub("/+$", "")) .. "/" .. name, depth + 1) end
		elseif mode == "link" then
			if depth == 0 then warn[#warn + 1] = p .. ": a symbolic link (not followed)" end
		elseif mode == nil then
			warn[#warn + 1] = p .. ": not found"
		end
	end
	for _, p in ipairs(paths) do walk(p, 0) end
	table.sort(out)
	return out, warn
end

--- The paths less the batch's own output file (the same file, by device
-- and inode, whatever the path: it grows as the batch runs, and is no
-- program of it).
-- @return the paths kept, and a line to say when one was left out
function M.without(paths, output)
	if type(paths) ~= "table" then error("bad argument #1 to 'without' (table expected, got " .. type(paths) .. ")", 2) end
	if type(output) ~= "string" then error("bad argument #2 to 'without' (string expected, got " .. type(output) .. ")", 2) end
	local lfs = load_lfs()
	local o = lfs and lfs.attributes(output)
	if not o then return paths end
	local keep, note = {}, nil
	for _, p in ipairs(paths) do
		local a = lfs.symlinkattributes(p)
		if a and a.dev == o.dev and a.ino == o.ino then
			note = p .. ": the batch's own output file (not run)"
		else
			keep[#keep + 1] = p
		end
	end
	return keep, note
end

--- Parses `K/N` (1 <= K <= N).
-- @return k, n; or nil, msg
function M.parse_shard(s)
	local k, n = tostring(s):match("^(%d+)/(%d+)$")
	k, n = tonumber(k), tonumber(n)
	if not k or n < 1 or k < 1 or k > n or n > 100000 then
		return nil, "expected K/N with 1 <= K <= N"
	end
	return k, n
end

--- Shard k of n of a list of paths: each path belongs to the shard that
-- its sha256's first 8 hex digits, modulo n, name (so the same path
-- goes to the same shard on every machine, whatever the others are).
function M.shard(list, k, n)
	local out = {}
	for _, p in ipairs(list) do
		if tonumber(core.sha256(p):sub(1, 8), 16) % n == k - 1 then out[#out + 1] = p end
	end
	return out
end

--- The hashes of a program file (`core.hashes`: md5, sha1, sha256,
-- ssdeep, tlsh), read once without following a symlink; with `only_sha256`,
-- `{ sha256 = }` alone (what the list of a batch is keyed by: a thirtieth
-- of the CPU of all five).
-- @return the hashes, or nil, msg
function M.hash_file(path, only_sha256)
	local f, msg = core.open_file(path)
	if not f then return nil, msg end
	local data, rerr = f:read(1 << 32)
	f:close()
	if not data then return nil, rerr end
	if only_sha256 then return { sha256 = core.sha256(data) } end
	return core.hashes(data)
end

-- An item's hashes, all five, made where its box is (a worker of the
-- batch, beside the others) from the file read again: nil and why when
-- it cannot be read or is no longer the content it was listed with.
local function item_hashes(item)
	if item.hashes then return item.hashes end
	local h, msg = M.hash_file(item.path)
	if not h then return nil, msg end
	if h.sha256 ~= item.sha256 then return nil, "changed since it was hashed (sha256 " .. h.sha256 .. ")" end
	item.hashes = h
	return h
end

--- The number of cores sbxlua may use: its affinity mask's, fewer when
-- a cgroup v2 `cpu.max` quota allows fewer (quota / period rounded up).
-- @return n, the affinity's count, the quota's (nil when none)
function M.cores()
	return core.cpus()
end

-- ---- runs ----

--- The key of a record: its program's sha256 and the options digest.
function M.key(rec)
	return tostring(rec.sha256) .. " " .. tostring(rec.options)
end

-- a limit event's cause, for the summary
local function limit_hit(run)
	for _, e in ipairs(run.events or {}) do
		if e.kind == "killed" and e.limit ~= nil then return e.cause end
	end
	return nil
end

-- The record of one program from its run's structured result.
local function record(item, run, rules, elapsed, cpu)
	run.yara = run.yara or item.yara -- the sample's YARA scan (batch.lua --yara)
	local v = verdict.judge(run, rules.list, rules.opts)
	if run.behaviour then behaviour.judged(run.behaviour, v) end
	local h = item.hashes or {}
	return {
		program = item.path, sha256 = item.sha256, options = item.options,
		md5 = h.md5, sha1 = h.sha1, ssdeep = h.ssdeep, tlsh = h.tlsh,
		outcome = run.outcome, exit_code = run.exit_code,
		verdict = v.verdict, severity = v.severity, reasons = v.reasons,
		sigma_analysis_results = v.sigma_analysis_results,
		rule_errors = #v.errors > 0 and v.errors or nil,
		rules_not_evaluated = v.not_evaluated,
		limit = limit_hit(run),
		timings = { elapsed = elapsed, cpu = cpu },
		run = run,
	}
end

-- YARA rules (`rules.yara`, an `sbx.yara` set) over each run of a batch:
-- its dropped files copied into a private directory of its own and its
-- memory payloads' heads scanned by the inspection worker as it types
-- them; both read after the box by this process's worker, so one box at
-- a time.  `start(o)` gives a run's state (`keep`, the directory, when
-- it could be made: else its dropped files are listed as not kept;
-- `unloaded`, why the worker did not load the rules), `scan` its record
-- `run.yara`, `done` removes its directory; closing removes any left.
local function yara_runs(set)
	local yara = require "sbx.yara"
	local dirs = {}
	local Y = setmetatable({}, { __close = function()
		for dir in pairs(dirs) do yara.remove_dir(dir) end
	end })
	function Y.start(o)
		local keep = yara.private_dir()
		if keep then
			dirs[keep] = true
			o.keep = keep
		end
		local loaded, why = set:begin_run()
		return { keep = keep, unloaded = not loaded and why or nil }
	end
	function Y.scan(item, run, y)
		local scan = yara.join(item.yara, (set:over_run(nil, nil, run, y.keep)))
		if y.unloaded then
			table.insert(scan.stopped, { file = "the memory payloads", what = "memfd",
				why = "rules not loaded by the worker: " .. tostring(y.unloaded) })
		end
		return scan
	end
	function Y.done(y)
		if y and y.keep then
			yara.remove_dir(y.keep)
			dirs[y.keep] = nil
		end
	end
	return Y
end

-- The record of a run the pool gave back (or of a spec that could not
-- run); with YARA rules, `ys` and the run's state `y` (`yara_runs`).
local function judged(item, info, r, rules, host, ys, y)
	if r.outcome == "error" then
		return record(item, { outcome = "error", exit_code = report.EXIT_CANNOT,
			error = r.error, events = {} }, rules, 0, 0)
	end
	-- the same pipeline as run.lua's (sbx.pipeline): the written files,
	-- the decoys, the sink's records; the rules read the behaviour summary
	local run = pipeline.result(r, info, pipeline.collect(r, info, host))
	if ys then run.yara = ys.scan(item, run, y) end
	local rec = record(item, run, rules, r.elapsed, r.cpu)
	if r.outcome == "interrupted" then
		rec.interrupted = { signal = r.signal or 2, signame = r.signame or "SIGINT" }
	end
	return rec
end

--- Runs the programs, at most `jobs` at once (at most `M.max_jobs`) under
-- one supervisor (`sbx.pool`): the next starts as soon as one ends, and
-- each is judged while the others run.  Each in its own standard box
-- built from `base` (the options of `sbx.stdbox.build` without `prog`).
-- With YARA rules (`rules.yara`), one box at a time (`jobs` 1), each
-- scanned before the next starts.
-- @tparam table|function items list of `{ path =, sha256 =, options = }`
--  (`hashes =` too, or they are made here before its box from the file
--  read again: one whose sha256 is no longer the item's is recorded as an
--  error, not run), or a function that gives the next one (nil at the end)
-- @tparam table base the box options shared by every program
-- @tparam table rules the judging, `M.setup`'s: `{ list = rules, opts = }`
-- @tparam integer jobs
-- @tparam function each called with each record and its item as its run
-- ends (in the order they end); a record of a box the operator's signal stopped has
-- `interrupted = { signal =, signame = }` (the signal sbxlua got), and no
-- program starts after it
function M.run(items, base, rules, jobs, each)
	if rules.yara and jobs ~= 1 then error("sbx.batch.run: with YARA rules, one box at a time a process", 2) end
	local ys <close> = rules.yara and yara_runs(rules.yara) or nil
	local pool <close> = sbx.pool()
	local host = sbx.ns_ids()
	local running, stopped = {}, false
	local next_item = items
	if type(items) == "table" then
		local i = 0
		next_item = function()
			i = i + 1
			return items[i]
		end
	end
	local function start(item)
		local _, changed = item_hashes(item)
		if changed then
			each(judged(item, nil, { outcome = "error", error = item.path .. ": " .. changed }, rules, host), item)
			return
		end
		local o = {}
		for k, v in pairs(base) do o[k] = v end
		o.prog = item.path:find("/", 1, true) and item.path or "./" .. item.path
		o.args = {}
		local y = ys and ys.start(o)
		local spec, info = pipeline.build(pipeline.freeze(o))
		local token, msg
		if spec then token, msg = pool:start(spec) else msg = info.msg end
		if not token then
			each(judged(item, nil, { outcome = "error", error = msg }, rules, host), item)
			if ys then ys.done(y) end
		else
			running[token] = { item = item, info = info, y = y }
		end
	end
	local function fill()
		while not stopped and pool:running() < jobs do
			local item = next_item()
			if not item then
				next_item = function() return nil end
				break
			end
			start(item)
		end
	end
	while true do
		fill()
		local token, r = pool:wait()
		if not token then break end
		if r.outcome == "interrupted" then stopped = true end
		-- the next box starts before this one is judged: its set-up (in
		-- the kernel and in its own init) runs beside the judging; not
		-- with YARA rules, whose scans need the worker this box used
		if not ys then fill() end
		local at = running[token]
		running[token] = nil
		local rec = judged(at.item, at.info, r, rules, host, ys, at.y)
		if ys then ys.done(at.y) end
		each(rec, at.item)
	end
end

--- The record of an item whose run was lost (`sbx.spread`: the worker
-- that ran it died twice), with why.
function M.lost(item, why, rules)
	item_hashes(item)
	local rec = record(item, { outcome = "error", exit_code = report.EXIT_CANNOT,
		error = "lost: " .. tostring(why), events = {} }, rules, 0, 0)
	rec.outcome = "lost"
	return rec
end

-- ---- set-up ----

-- The rules (the library of rules/ unless o.no_default, then each
-- --rules: a Lua or Sigma file, or a directory of them), the digests of
-- their text, and a line for each Sigma rule not supported; or nil, err.
local function load_rules(o)
	local rules, digest, notes = {}, {}, {}
	local paths = {}
	if not o.no_default then paths[1] = verdict.default_path() end
	for _, f in ipairs(o.rules or {}) do paths[#paths + 1] = f end
	for _, f in ipairs(paths) do
		local rs, skipped, d = verdict.load(f)
		if not rs then return nil, { option = "--rules", typed = f, msg = skipped } end
		for _, r in ipairs(rs) do rules[#rules + 1] = r end
		for _, sk in ipairs(skipped) do
			notes[#notes + 1] = ("sigma rule not supported: %s: %s: %s"):format(
				tostring(sk.source), tostring(sk.title or sk.id or "?"), tostring(sk.why))
		end
		digest[#digest + 1] = d
	end
	return rules, digest, notes
end

--- What every program of a batch shares: the boxes' options (the
-- analysis box's unless `o.jail`: `sbx.stdbox` owns it) settled by
-- `sbx.pipeline`, the verdict rules, and the digest of what a record
-- depends on (the same program under other options or rules is another
-- record).
-- @tparam table o the options of `batch.lua` (`sbx.options`)
-- @return base, the judging (`{ list = rules, opts = { budget = } }`,
--  `sbx.verdict.judge`'s), options digest, lines to say (Sigma rules not
--  supported); or nil, err (`sbx.pipeline`'s)
function M.setup(o)
	local base = { ro = {}, rw = {}, socket = {}, tmp = {}, env = {}, limits = o.limits,
		profile = o.profile, stdout = "discard", stderr = "discard", cgroup = o.cgroup,
		sleep_skip = o.sleep_skip }
	if not o.jail then require("sbx.stdbox").analysis(base) end
	local err
	base, err = pipeline.settle(base)
	if not base then return nil, err end
	local rules, digest, notes = load_rules(o)
	if not rules then return nil, digest end
	-- the budget is in the digest only when typed: records made with the
	-- default keep the digest they had before it existed
	local judging = { list = rules, opts = { budget = o.judge_budget } }
	local lim = assert(require("sbx.limits").resolve(o.limits))
	local options = core.sha256(json.encode {
		version = sbx.version, profile = base.profile, limits = lim, rules = digest,
		net = base.net or "none", decoys = base.decoys or false, sleep_skip = base.sleep_skip,
		judge_budget = o.judge_budget,
		-- a box that follows its last process records what one that ends
		-- with the command never saw: another record, not a resumed one
		follow = base.follow or nil })
	return base, judging, options, notes
end

--- The JSON-lines file to append to, opened (`M.open_out`), and the keys
-- of the records already in it; a cut last line is ended first, so that
-- the next record starts a line of its own.
-- @return the file, the keys, whether its last line was cut; or nil, msg
function M.resume(path)
	local done, cut = {}, false
	if core.lstat(path) then
		local recs, _, torn = M.read_lines(path)
		for _, r in ipairs(recs or {}) do done[M.key(r)] = true end
		cut = torn or false
	end
	local f, msg = M.open_out(path)
	if not f then return nil, msg end
	if cut then f:write("\n") end
	return f, done, cut
end

--- The programs of paths still to run: each once, none recorded already
-- with the same options (`done`, from `M.resume`).
-- @return the items, how many were skipped as recorded, a line for each
--  path that could not be read
function M.todo(paths, options, done)
	local todo, skipped, unread = {}, 0, {}
	for _, p in ipairs(paths) do
		local h, herr = M.hash_file(p, true)
		if not h then
			unread[#unread + 1] = ("%s: %s"):format(p, herr)
		else
			local item = { path = p, sha256 = h.sha256, options = options }
			if done[M.key(item)] then
				skipped = skipped + 1
			else
				done[M.key(item)] = true
				todo[#todo + 1] = item
			end
		end
	end
	return todo, skipped, unread
end

-- ---- output ----

--- Reads the records of a JSON-lines file: whole lines only (a last line
-- without its newline is not a record).
-- @return list of records, number of lines not read, whether the file ends
-- in the middle of a line, each record's line as read (by record: a
-- decoded empty object is not told from an empty list, so a record is
-- written again as its line, never encoded again); or nil, msg
function M.read_lines(path)
	local f, msg = io.open(path, "rb")
	if not f then return nil, msg end
	local data, err = f:read("a")
	f:close()
	-- a directory opens, and fails its read
	if not data then return nil, ("%s: %s"):format(path, tostring(err)) end
	local recs, bad, text = {}, 0, {}
	for line in data:gmatch("([^\n]*)\n") do
		local ok, rec = pcall(cjson.decode, line)
		if ok and type(rec) == "table" and rec.sha256 then
			recs[#recs + 1] = rec
			text[rec] = line
		elseif line ~= "" then
			bad = bad + 1
		end
	end
	return recs, bad, data ~= "" and data:sub(-1) ~= "\n", text
end

--- Opens the output for appending, one write per line (no buffering,
-- O_APPEND): a line is never half written by this process, and lines of
-- several writers never interleave.  A symbolic link there is refused.
-- @return file, or nil, msg
function M.open_out(path)
	local st = core.lstat(path)
	if st and st.type ~= "file" then return nil, path .. ": not a regular file" end
	local f, msg = io.open(path, "ab")
	if not f then return nil, msg end
	f:setvbuf("no")
	return f
end

--- A record as its line (canonical JSON and a newline).
function M.line(rec)
	return json.encode(rec) .. "\n"
end

-- ---- summary ----

-- the ATT&CK ids of a record's findings, each once
local function record_ids(r)
	local ids = {}
	for _, f in ipairs(r.reasons or {}) do
		for _, id in ipairs(f.attack or {}) do ids[id] = true end
	end
	return ids
end

--- The summary of a list of records: counts per verdict, limits hit,
-- programs per ATT&CK technique, the slowest programs.
-- @return a table `{ total=, verdicts={name=n}, limits={name=n},
--  techniques={id=n}, slowest={ {program=, elapsed=}... } }`
function M.summary(recs, slowest)
	local s = { total = #recs, verdicts = {}, limits = {}, outcomes = {}, techniques = {}, slowest = {} }
	local by = {}
	for _, r in ipairs(recs) do
		s.verdicts[r.verdict] = (s.verdicts[r.verdict] or 0) + 1
		for id in pairs(record_ids(r)) do s.techniques[id] = (s.techniques[id] or 0) + 1 end
		s.outcomes[r.outcome] = (s.outcomes[r.outcome] or 0) + 1
		if r.limit then s.limits[r.limit] = (s.limits[r.limit] or 0) + 1 end
		by[#by + 1] = r
	end
	table.sort(by, function(a, b)
		local ea, eb = (a.timings or {}).elapsed or 0, (b.timings or {}).elapsed or 0
		if ea ~= eb then return ea > eb end
		return a.program < b.program
	end)
	for i = 1, math.min(slowest or 3, #by) do
		s.slowest[i] = { program = by[i].program, elapsed = (by[i].timings or {}).elapsed or 0 }
	end
	return s
end


--- The summary as text lines (each `batch: ...`).
function M.summary_text(s)
	local lines = { ("batch: %d program(s)"):format(s.total) }
	for _, v in ipairs(json.sorted_keys(s.verdicts)) do
		lines[#lines + 1] = ("batch: verdict %s: %d"):format(v, s.verdicts[v])
	end
	for _, v in ipairs(json.sorted_keys(s.outcomes)) do
		lines[#lines + 1] = ("batch: outcome %s: %d"):format(v, s.outcomes[v])
	end
	for _, v in ipairs(json.sorted_keys(s.limits)) do
		lines[#lines + 1] = ("batch: limit hit %s: %d"):format(v, s.limits[v])
	end
	for _, v in ipairs(json.sorted_keys(s.techniques or {})) do
		lines[#lines + 1] = ("batch: technique %s: %d"):format(v, s.techniques[v])
	end
	for _, r in ipairs(s.slowest) do
		lines[#lines + 1] = ("batch: slowest %.2f s %s"):format(r.elapsed, report.escape(r.program))
	end
	return table.concat(lines, "\n") .. "\n"
end

--- Seconds since boot (`/proc/uptime`, 10 ms steps), for rates and
-- ETAs; 0 when it cannot be read.
function M.uptime()
	local f = io.open("/proc/uptime")
	local n = f and f:read("n")
	if f then f:close() end
	return n or 0
end

--- The progress line: done/total, rate, ETA, verdicts so far, and the
-- boxes at once when given (`-j`).
function M.progress(done, total, elapsed, verdicts, jobs)
	local rate = elapsed > 0 and done / elapsed or 0
	local eta = rate > 0 and (total - done) / rate or 0
	local v = {}
	for _, name in ipairs(json.sorted_keys(verdicts)) do v[#v + 1] = ("%s %d"):format(name, verdicts[name]) end
	return ("batch: %d/%d  %.1f/s  ETA %ds  %s%s"):format(done, total, rate, math.floor(eta + 0.5),
		table.concat(v, ", "), jobs and ("  (-j %d)"):format(jobs) or "")
end

--- Merges JSON-lines files: each record once (by `M.key`, the first
-- seen), sorted by program then key.
-- @return list of records, number of lines not read, each record's line
--  (by record, `M.read_lines`)
function M.merge(files)
	local seen, all, bad, lines = {}, {}, 0, {}
	for _, path in ipairs(files) do
		local recs, nbad, _, text = M.read_lines(path)
		if not recs then return nil, nbad end
		bad = bad + nbad
		for _, r in ipairs(recs) do
			local k = M.key(r) .. " " .. tostring(r.program)
			if not seen[k] then
				seen[k] = true
				all[#all + 1] = r
				lines[r] = text[r]
			end
		end
	end
	table.sort(all, function(a, b)
		if a.program ~= b.program then return tostring(a.program) < tostring(b.program) end
		return M.key(a) < M.key(b)
	end)
	return all, bad, lines
end

return M
