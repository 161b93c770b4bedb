-- SPDX-License-Identifier: MIT
--- sbx.yara: the operator's YARA rules over what a run is about: the
-- sample itself, each file it dropped and each payload it executed from
-- memory (docs/written-files.md, "YARA").
--
-- Rules files are operator input and hostile input alike: each is read
-- as the verdict's rules files are (`sbx.verdict.read_rules`: opened once
-- with no symlink followed, refused when a box could have written it or
-- its directory, at most 1 MiB), refused when it holds a NUL byte, and
-- compiled by libyara in a confined child of sbxlua's
-- (`core.yara_compile`; `include` refused), once: the compiled set is
-- bytes sbxlua keeps without reading.  Scanning box-made bytes runs in
-- the confined inspection worker only (`core.yara_scan`), with libyara's
-- own timeout and one budget of the worker's CPU per run; libyara is
-- never opened in sbxlua.  Each match is a finding (`M.verdict_rules`)
-- and a record of `run.yara` (docs/schema/run.schema.json).
local core = require "sbx.core"

local M = {}

local type, error, ipairs, pairs, tostring, tonumber, next = type, error, ipairs, pairs, tostring, tonumber, next
local concat, sort = table.concat, table.sort

local SET = { __name = "sbx.yara.rules" }
SET.__index = SET
SET.__tostring = function(s) return ("sbx.yara.rules (%d files)"):format(#s.files) end

--- The most rules files one set reads (a directory's included).
M.MAX_FILES = 4096
--- String matches listed per rule and file (the core's SBX_YARA_OFFSETS).
M.OFFSETS = 16

local function bad(fname, n, msg)
	error(("bad argument #%d to '%s' (%s)"):format(n, fname, msg), 3)
end

local function is_rules_name(name)
	return name:find("%.yara?$") ~= nil
end

-- The files of a directory named --yara: *.yar and *.yara, by name,
-- walked through its descriptor (no symlink followed), refused when a
-- box could have written it; into out.
local function walk(dir, depth, out)
	local verdict = require "sbx.verdict"
	local d, msg = core.open_dir(dir)
	if not d then return nil, msg end
	local st = core.lstat(dir)
	local why = st and verdict.box_writable(st, "the directory")
	local names, lerr
	if not why then names, lerr = d:list() end
	d:close()
	if why then return nil, ("%s: %s"):format(dir, why) end
	if not names then return nil, lerr end
	sort(names, function(a, b) return a.name < b.name end)
	for _, e in ipairs(names) do
		local p = dir .. "/" .. e.name
		local ok, err = true, nil
		if e.type == "dir" and e.name:sub(1, 1) ~= "." and depth < 8 then
			ok, err = walk(p, depth + 1, out)
		elseif e.type == "file" and is_rules_name(e.name) then
			out[#out + 1] = p
		end
		if not ok then return nil, err end
		if #out > M.MAX_FILES then return nil, ("%s: more than %d rules files"):format(dir, M.MAX_FILES) end
	end
	return true
end

-- One path's sources (a file, or a directory's files) added to list.
local function add_path(path, list, seen)
	local files = {}
	local st = core.lstat(path)
	if st and st.type == "dir" then
		local ok, msg = walk((path:gsub("(.)/+$", "%1")), 0, files)
		if not ok then return nil, msg end
	else
		files[1] = path
	end
	local read_rules = require("sbx.verdict").read_rules
	for _, p in ipairs(files) do
		local text, msg = read_rules(p)
		if not text then return nil, msg end
		if text:find("\0", 1, true) then return nil, ("%s: holds a NUL byte: binary, not YARA rules"):format(p) end
		-- a namespace per file (its name): rules of two files may share
		-- a name; the first file of a name keeps it bare
		local ns = p:match("[^/]*$"):gsub("%.yara?$", "")
		while seen[ns] do ns = ns .. "_" end
		seen[ns] = true
		list[#list + 1] = { name = p, ns = ns, text = text }
	end
	return true
end

--- Compiles YARA rules files: each path a rules file or a directory of
-- them (`*.yar`, `*.yara`, subdirectories too), read and checked as the
-- module says, compiled once in a confined child.
-- @tparam string|table paths a path or a list of paths
-- @return the compiled set (`sbx.yara.rules`: `set.files`, the files in
--  order; `set.digest`, the sha256 of every file's name and sha256); or
--  nil and why (a rule that does not compile: libyara's `file:line:
--  message`)
function M.compile(paths)
	if type(paths) == "string" then paths = { paths } end
	if type(paths) ~= "table" then bad("compile", 1, "string or list of paths expected, got " .. type(paths)) end
	if #paths == 0 then bad("compile", 1, "at least one path expected") end
	for i, p in ipairs(paths) do
		if type(p) ~= "string" or p == "" then bad("compile", 1, ("path %d is not a non-empty string"):format(i)) end
	end
	local sources, seen = {}, {}
	for _, p in ipairs(paths) do
		local ok, msg = add_path(p, sources, seen)
		if not ok then return nil, msg end
	end
	if #sources == 0 then return nil, concat(paths, ", ") .. ": no rules files (*.yar, *.yara)" end
	if #sources > M.MAX_FILES then return nil, ("more than %d rules files"):format(M.MAX_FILES) end
	local blob, msg = core.yara_compile(sources)
	if not blob then
		-- `compile FILE:LINE: what: Invalid argument` from the core
		return nil, (tostring(msg):gsub("^compile ", ""):gsub(": Invalid argument$", ""))
	end
	local files, digest = {}, {}
	for i, s in ipairs(sources) do
		files[i] = s.name
		digest[i] = s.name:match("[^/]*$") .. " " .. core.sha256(s.text)
	end
	return setmetatable({ blob = blob, files = files, digest = core.sha256(concat(digest, "\n")) }, SET)
end

-- "\xHH" escapes undone
local function unescape(s)
	return (s:gsub("\\x(%x%x)", function(h) return string.char(tonumber(h, 16)) end))
end

-- The worker's lines (inspect_yara.c) as a list of matches; the text is
-- the worker's, a process that read box-made bytes: every field is
-- checked here, and a line of no known shape ends the list.
local function parse(text)
	local list, cur, cut = {}, nil, false
	for line in text:gmatch("[^\n]+") do
		local f = {}
		for field in (line .. "\t"):gmatch("([^\t]*)\t") do f[#f + 1] = unescape(field) end
		if f[1] == "rule" and #f == 4 then
			local tags = {}
			for t in f[4]:gmatch("%S+") do tags[#tags + 1] = t end
			cur = { namespace = f[2], rule = f[3], tags = tags, meta = {}, strings = {} }
			list[#list + 1] = cur
		elseif cur and f[1] == "meta" and #f == 4 then
			local v = f[4]
			if f[3] == "i" then v = math.tointeger(tonumber(v)) elseif f[3] == "b" then v = v ~= "0" end
			cur.meta[f[2]] = v
		elseif cur and f[1] == "string" and #f == 3 and (math.tointeger(tonumber(f[3])) or -1) >= 0 then
			cur.strings[#cur.strings + 1] = { id = f[2], offset = math.tointeger(tonumber(f[3])) }
		elseif cur and f[1] == "more" and math.tointeger(tonumber(f[2] or "")) then
			cur.strings_left_out = math.tointeger(tonumber(f[2]))
		else
			cut = true -- "cut", or what is not a line of the worker's
			break
		end
	end
	return list, cut
end

--- Scans each item by the set in the inspection worker, within one
-- budget of its CPU.
-- @tparam table items list of `{ file =, what = ("sample", "dropped",
--  "memfd"), data = the bytes }`
-- @tparam[opt] string budget `"run"` (one budget for all, the default)
--  or `"each"` (one each: a batch's samples)
-- @return `{ matches = { {rule =, namespace =, tags =, meta =, strings =
--  { {id =, offset =} }, strings_left_out =, file =, what =} }, stopped
--  = { {file =, what =, why = ("timeout", "budget", "not scanned",
--  "error")} }, cut = { files whose matches did not all fit } }`; or
--  nil, msg when no worker could load the rules
function SET:scan(items, budget)
	if getmetatable(self) ~= SET then bad("scan", 1, "sbx.yara.rules expected") end
	if type(items) ~= "table" then bad("scan", 2, "list of items expected, got " .. type(items)) end
	if budget ~= nil and budget ~= "run" and budget ~= "each" then bad("scan", 3, "'run' or 'each' expected") end
	local data = {}
	for i, it in ipairs(items) do
		if type(it) ~= "table" or type(it.data) ~= "string" or type(it.file) ~= "string" then
			bad("scan", 2, ("item %d needs file and data strings"):format(i))
		end
		data[i] = it.data
	end
	local out = { matches = {}, stopped = {}, cut = {} }
	if #data == 0 then return out end
	local answers, msg = core.yara_scan(self.blob, data, budget)
	if not answers then return nil, msg end
	for i, a in ipairs(answers) do
		local it = items[i]
		if a.text then
			local list, cut = parse(a.text)
			for _, m in ipairs(list) do
				m.file, m.what = it.file, it.what
				if next(m.meta) == nil then m.meta = nil end
				out.matches[#out.matches + 1] = m
			end
			if cut then out.cut[#out.cut + 1] = it.file end
		else
			out.stopped[#out.stopped + 1] = { file = it.file, what = it.what, why = a.error }
		end
	end
	return out
end

-- a kept copy's bytes (the keep directory is sbxlua's own, 0700: no box
-- reaches it), read with no symlink followed on its last name
local function kept_bytes(keep, rel)
	if type(rel) ~= "string" or rel:find("%.%.") then return nil, "not kept" end
	local f, msg = core.open_file(keep .. "/" .. rel)
	if not f then return nil, msg end
	local data, rerr = f:read(64 << 20)
	f:close()
	return data, rerr
end

--- The items of a run to scan: the sample (`sbx.sample`'s bytes), each
-- dropped file from its kept copy (`keep`, the run's keep directory),
-- each memory payload; those whose bytes sbxlua does not hold are
-- returned apart, with why.
-- @return items (for `set:scan`), and a list of `{ file =, what =, why = }`
function M.items(sample, data, res, keep)
	local items, missing = {}, {}
	if sample and data then items[1] = { file = sample.path, what = "sample", data = data } end
	for _, f in ipairs(type(res) == "table" and res.files or {}) do
		if f.type == "file" and not f.decoy then
			-- a file the walk did not read whole (past its bound, or an
			-- errno) is named, never passed over
			local bytes, why = nil, f.unread or (f.sha256 and "not kept" or "not read")
			if keep and f.kept and f.sha256 then bytes, why = kept_bytes(keep, f.kept) end
			if bytes then
				items[#items + 1] = { file = f.path, what = "dropped", data = bytes }
			else
				missing[#missing + 1] = { file = f.path, what = "dropped", why = tostring(why) }
			end
		end
	end
	return items, missing
end

-- The heads the worker scanned during the run (`core.yara_inline`) as
-- matches of the memory payloads: a payload of at most 64 KiB is its
-- head (the same sha256); a larger one's head is not told from another
-- file's, so what its head matched is named by that head's sha256.  Into
-- scan (matches, stopped).  `known` holds the sha256 of the dropped
-- files' heads (scanned whole from their copies already).
local HEAD = 65536
local function memfd_matches(scan, res, kept, known)
	local b = type(res) == "table" and type(res.behaviour) == "table" and res.behaviour or {}
	local by = {}
	for _, k in ipairs(kept) do by[k.sha256] = k end
	local function add(text, file)
		local list, cut = parse(text)
		for _, m in ipairs(list) do
			m.file, m.what = file, "memfd"
			if next(m.meta) == nil then m.meta = nil end
			scan.matches[#scan.matches + 1] = m
		end
		if text:find("\nstopped\n$") or text:find("^stopped\n$") then
			scan.stopped[#scan.stopped + 1] = { file = file, what = "memfd", why = "timeout" }
		elseif cut then
			scan.cut = scan.cut or {}
			scan.cut[#scan.cut + 1] = file
		end
	end
	for _, f in ipairs(b.files_dropped or {}) do
		if f.executed_from_memory and f.sha256 and known[f.sha256] == "whole" then
			by[f.sha256] = nil -- scanned whole from its copy (`memfd_items`)
		elseif f.executed_from_memory and f.sha256 then
			local file, k = tostring(f.path or "memfd"), by[f.sha256]
			if k and (f.size or 0) <= HEAD then
				add(k.text, file)
				by[f.sha256] = nil
			elseif (f.size or 0) > HEAD then
				scan.stopped[#scan.stopped + 1] = { file = file, what = "memfd",
					why = "larger than 64 KiB: only its first 64 KiB scanned, at the exec" }
			elseif not f.type then
				scan.stopped[#scan.stopped + 1] = { file = file, what = "memfd", why = "not scanned" }
			end
		end
	end
	for sha, k in pairs(by) do
		if not known[sha] then add(k.text, ("the first %d bytes of a memory payload or an unkept file (sha256 %s)")
			:format(k.size, sha)) end
	end
end

-- The memory payloads of a run whose copies the supervisor kept as it
-- hashed them (`keep`/memfd/SHA256, core/super/notify.c keep_memfd), each
-- once, as items to scan whole; only a copy whose bytes have the sha256
-- the exec recorded.
local function memfd_items(res, keep)
	local b = type(res) == "table" and type(res.behaviour) == "table" and res.behaviour or {}
	local items, seen = {}, {}
	for _, f in ipairs(keep and b.files_dropped or {}) do
		local sha = f.executed_from_memory and f.sha256
		if type(sha) == "string" and sha:match("^%x+$") and #sha == 64 and not seen[sha] then
			seen[sha] = true
			local bytes = kept_bytes(keep, "memfd/" .. sha)
			if bytes and core.sha256(bytes) == sha then
				items[#items + 1] = { file = tostring(f.path or "memfd"), what = "memfd", data = bytes, sha256 = sha }
			end
		end
	end
	return items
end

--- Starts a run's scan of its memory payloads: the rules loaded by the
-- workers of the run, which scan each payload's first 64 KiB as they
-- type it (`over_run` reads what they found).
function SET:begin_run()
	if getmetatable(self) ~= SET then bad("begin_run", 1, "sbx.yara.rules expected") end
	return core.yara_inline(self.blob)
end

--- A run's scan: its items (`M.items`) scanned; the record `run.yara`
-- (the set's files and digest, the matches, what was not scanned) and
-- its verdict rules (`M.verdict_rules`).
function SET:over_run(sample, data, res, keep)
	if getmetatable(self) ~= SET then bad("over_run", 1, "sbx.yara.rules expected") end
	local kept, lost = core.yara_inline()
	local items, missing = M.items(sample, data, res, keep)
	for _, it in ipairs(memfd_items(res, keep)) do items[#items + 1] = it end
	local scan, msg = self:scan(items)
	if not scan then
		scan = { matches = {}, stopped = {}, cut = {} }
		for _, it in ipairs(items) do
			scan.stopped[#scan.stopped + 1] = { file = it.file, what = it.what, why = tostring(msg) }
		end
	end
	for _, m in ipairs(missing) do scan.stopped[#scan.stopped + 1] = m end
	-- the heads of what was scanned whole, and the payloads so scanned
	local known = {}
	for _, it in ipairs(items) do known[core.sha256(it.data:sub(1, HEAD))] = true end
	for _, it in ipairs(items) do
		if it.what == "memfd" then known[it.sha256] = "whole" end
	end
	memfd_matches(scan, res, kept, known)
	if lost > 0 then
		scan.stopped[#scan.stopped + 1] = { file = ("%d more files' heads"):format(lost), what = "memfd",
			why = "answers past the bound left out" }
	end
	scan.files, scan.digest = self.files, self.digest
	if #scan.cut == 0 then scan.cut = nil end
	return scan, M.verdict_rules(scan)
end

--- Verdict rules that read a run's scan from the run itself
-- (`run.yara`, set before judging; batch.lua): rule i returns the i-th
-- of `M.verdict_rules(run.yara)`'s findings, the last says how many past
-- the slots were left out.
-- @tparam[opt] integer n how many slots (default 32)
function M.slot_rules(n)
	if n ~= nil and (math.type(n) ~= "integer" or n < 1) then bad("slot_rules", 1, "a count above 0 expected") end
	n = n or 32
	local cache = setmetatable({}, { __mode = "k" })
	local function of(run)
		local y = type(run) == "table" and type(run.yara) == "table" and run.yara or nil
		if not y then return {} end
		cache[y] = cache[y] or M.verdict_rules(y)
		return cache[y]
	end
	local rules = {}
	for i = 1, n do
		rules[i] = { name = "yara", fn = function(run)
			local r = of(run)[i]
			return r and r.fn()
		end }
	end
	rules[n + 1] = { name = "yara", fn = function(run)
		local more = #of(run) - n
		if more <= 0 then return nil end
		return { verdict = "info", severity = 0, reason = ("%d more YARA findings left out (run.yara lists every match)"):format(more) }
	end }
	return rules
end

--- Scans the samples of a batch's items before their runs, each once
-- and each within a budget of its own: `item.yara` (the record of
-- `over_run`, the sample alone), judged with the run (`M.slot_rules`).
-- The file is read again by descriptor with no link followed, and
-- scanned only when its sha256 is the one the batch hashed.
-- @tparam table items `sbx.batch.todo`'s (`{ path =, sha256 = }`)
function M.scan_items(set, items)
	if getmetatable(set) ~= SET then bad("scan_items", 1, "sbx.yara.rules expected") end
	if type(items) ~= "table" then bad("scan_items", 2, "table expected, got " .. type(items)) end
	local list, why = {}, {}
	for i, item in ipairs(items) do
		local f, msg = core.open_file(item.path)
		local data = f and f:read(require("sbx.sample").MAX_BYTES)
		if f then f:close() end
		if data and core.sha256(data) ~= item.sha256 then data, msg = nil, "changed since it was hashed" end
		if data then list[#list + 1] = { file = item.path, what = "sample", data = data, i = i } end
		why[i] = not data and tostring(msg or "cannot be read") or nil
	end
	-- one worker for them all, a budget each
	local scan, msg = set:scan(list, "each")
	for i, item in ipairs(items) do
		item.yara = { matches = {}, stopped = {}, files = set.files, digest = set.digest }
		local stop = why[i] or (not scan and tostring(msg)) or nil
		if stop then item.yara.stopped[1] = { file = item.path, what = "sample", why = stop } end
	end
	local at = {}
	for _, it in ipairs(list) do at[it.file] = items[it.i].yara end
	for _, m in ipairs(scan and scan.matches or {}) do table.insert(at[m.file].matches, m) end
	for _, s in ipairs(scan and scan.stopped or {}) do table.insert(at[s.file].stopped, s) end
	for _, file in ipairs(scan and scan.cut or {}) do
		at[file].cut = at[file].cut or {}
		table.insert(at[file].cut, file)
	end
end

--- A batch run's whole scan (`sbx.batch`): the sample's, made by the
-- parent before the run (`item_scan`, `M.scan_items`'), joined to what
-- `set:over_run` found after it in the dropped files' private copies and
-- the memory payloads' heads.
-- @tparam[opt] table item_scan
-- @tparam table run_scan `over_run`'s
-- @treturn table the record `run.yara`
function M.join(item_scan, run_scan)
	if item_scan ~= nil and type(item_scan) ~= "table" then bad("join", 1, "table or nil expected") end
	if type(run_scan) ~= "table" then bad("join", 2, "table expected, got " .. type(run_scan)) end
	local out = { matches = {}, stopped = {}, files = run_scan.files, digest = run_scan.digest }
	for _, scan in ipairs { item_scan or {}, run_scan } do
		for _, k in ipairs { "matches", "stopped", "cut" } do
			for _, v in ipairs(scan[k] or {}) do
				out[k] = out[k] or {}
				table.insert(out[k], v)
			end
		end
	end
	return out
end

--- The scan's findings as lines (a run without --explore).
function M.text(scan)
	if type(scan) ~= "table" then bad("text", 1, "table expected, got " .. type(scan)) end
	local esc = require("sbx.report").escape
	local out = {}
	for _, r in ipairs(M.verdict_rules(scan)) do
		local f = r.fn()
		out[#out + 1] = esc(("yara: %s: %s"):format(r.name, f.reason)) .. "\n"
	end
	return concat(out)
end

--- A private directory (0700, `sbx._shell.private_dir`'s
-- /tmp/sbxlua-yara.XXXXXXXX) for the copies of the files a run leaves
-- (`--keep`), when the operator named none: the dropped files are
-- scanned from there.
-- @return its path; or nil, msg
function M.private_dir()
	local dir = require("sbx._shell").private_dir("/tmp", "yara")
	if not dir then return nil, "mktemp: failed" end
	return dir
end

--- Removes a directory `M.private_dir` made, and what is in it.
function M.remove_dir(dir)
	if type(dir) ~= "string" or not dir:match("^/tmp/sbxlua%-yara%.[%w]+$") then
		bad("remove_dir", 1, "a directory of private_dir's expected")
	end
	require("sbx._shell").remove_dir("/tmp", "yara", dir)
end

--- Compiled sets are `sbx.yara.rules` objects.
function M.is_rules(v)
	return getmetatable(v) == SET
end

-- a match's severity meta as (verdict, severity): a word (info, low,
-- medium, high, critical) or a number from 0 to 10; suspicious 5 when
-- absent or of no known shape
local WORDS = { info = { "info", 0 }, informational = { "info", 0 }, low = { "suspicious", 3 },
	medium = { "suspicious", 5 }, high = { "malicious", 7 }, critical = { "malicious", 9 } }
local function severity(meta)
	local s = meta.severity
	if type(s) == "string" then
		local w = WORDS[s:lower()]
		if w then return w[1], w[2] end
		s = math.tointeger(tonumber(s))
	end
	if math.type(s) == "integer" and s >= 0 and s <= 10 then
		return s >= 7 and "malicious" or s >= 1 and "suspicious" or "info", s
	end
	return "suspicious", 5
end

-- a match's attack meta (ids separated by commas or spaces), the current
-- ones only (sbx.attack; a revoked id named by its successor); and the
-- ids left out
local function attack_ids(meta)
	local attack = require "sbx.attack"
	local ids, dropped = {}, {}
	local v = meta.attack or meta.mitre_attack or meta.attack_id
	if type(v) ~= "string" then return nil, dropped end
	for id in v:gmatch("[^,%s]+") do
		local ok = id:match("^T%d%d%d%d$") or id:match("^T%d%d%d%d%.%d%d%d$")
		local cur = ok and attack.current(id)
		if cur then ids[#ids + 1] = cur else dropped[#dropped + 1] = id end
	end
	return #ids > 0 and ids or nil, dropped
end

-- the scans the worker began and did not finish (the others: bytes
-- sbxlua does not hold)
local STOPPED = { timeout = true, budget = true, ["not scanned"] = true, error = true }

local WHAT = { sample = "the sample", dropped = "dropped file", memfd = "memory payload" }

-- One match's finding.
local function finding(m)
	local v, sev = severity(m.meta or {})
	local ids, dropped = attack_ids(m.meta or {})
	local strs = {}
	for i, s in ipairs(m.strings) do strs[i] = ("%s at %d"):format(s.id, s.offset) end
	local reason = ("YARA rule %s:%s%s matched %s %s"):format(m.namespace, m.rule,
		#m.tags > 0 and " [" .. concat(m.tags, " ") .. "]" or "", WHAT[m.what] or m.what, m.file)
	if #strs > 0 then reason = reason .. ": " .. concat(strs, ", ") end
	if m.strings_left_out then reason = reason .. (" (%d more string matches left out)"):format(m.strings_left_out) end
	if #dropped > 0 then reason = reason .. "; not current ATT&CK ids left out: " .. concat(dropped, " ") end
	return { verdict = v, severity = sev, reason = reason, attack = ids }
end

--- The scan's verdict rules: one per match (its finding: the rule's
-- name, namespace and tags, the file, the string matches; severity and
-- ATT&CK ids from its meta), one per file the scan stopped on (unknown:
-- the file was not wholly judged), one per file whose matches did not
-- all fit.  Judged with the others (`sbx.verdict.judge`).
-- @tparam table scan from `set:scan`
-- @treturn table a list of rules
function M.verdict_rules(scan)
	if type(scan) ~= "table" then bad("verdict_rules", 1, "table expected, got " .. type(scan)) end
	local rules = {}
	local function add(name, f) rules[#rules + 1] = { name = name, fn = function() return f end } end
	for _, m in ipairs(scan.matches or {}) do add("yara:" .. m.namespace .. ":" .. m.rule, finding(m)) end
	for _, s in ipairs(scan.stopped or {}) do
		if STOPPED[s.why] then
			add("yara_stopped", { verdict = "unknown", severity = 1,
				reason = ("YARA scan of %s %s stopped (%s): its rules not all evaluated"):format(
					WHAT[s.what] or s.what, s.file, s.why) })
		else
			add("yara_not_scanned", { verdict = "info", severity = 0,
				reason = ("YARA: %s %s not scanned: %s"):format(WHAT[s.what] or s.what, s.file, s.why) })
		end
	end
	for _, f in ipairs(scan.cut or {}) do
		add("yara_cut", { verdict = "unknown", severity = 1,
			reason = ("YARA matches of %s: more than fit, the rest left out"):format(f) })
	end
	return rules
end

return M
