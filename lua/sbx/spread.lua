-- SPDX-License-Identifier: MIT
--- A batch spread over worker processes: for `-j N`, a worker per core
-- (sbxlua running `batch.lua` again, `sbx.core.worker`), each with its
-- own supervisor loop, its share of the N boxes, its own rules compiled
-- once; one parent
-- (this module, in `batch.lua`'s process) owns the output, the resume
-- state, the progress line and the operator's signals.
--
-- The parent sends each worker the items to run, a few ahead (one line
-- each: `SEQ<TAB>item JSON`); a worker answers with one line per item:
-- `R<TAB>SEQ<TAB>record JSON`, or `I<TAB>SEQ<TAB>SIGNAL` for a box the
-- operator's signal stopped.  A worker judged what boxes made, so its
-- lines are data: each is parsed and checked against the item it answers
-- (program, sha256, options; the fields the parent reads), and a worker
-- that says anything else is killed as broken.  A worker that ends with
-- items unanswered (killed, crashed, broken) has them run again once by
-- another worker; an item lost twice is recorded as `lost`, with why.
-- Records are handed on in the items' order (`each`), whatever order
-- the workers finish them in.
-- @module sbx.spread
local core = require "sbx.core"
local cjson = require "cjson"
local json = require "sbx.json"

local M = {}

--- The first argument that makes `batch.lua` a worker.
M.FLAG = "--spread-worker"

-- ---- the worker's side ----

--- The next item the parent sent on stdin, or nil at its end.
-- @return item (with `seq`), or nil
function M.next_item()
	local l = io.stdin:read("l")
	if not l then return nil end
	local seq, text = l:match("^(%d+)\t(.*)$")
	local ok, item = pcall(cjson.decode, text or "")
	if not seq or not ok or type(item) ~= "table" or type(item.path) ~= "string" then
		error("spread: a line from the parent that is not an item", 0)
	end
	item.seq = tonumber(seq)
	return item
end

--- Sends the parent the answer for an item: its record's line, or the
-- signal that stopped its box.  One write per answer.
function M.answer(item, rec)
	local msg
	if rec.interrupted then
		msg = ("I\t%d\t%d\n"):format(item.seq, rec.interrupted.signal)
	else
		local rseq = rec.seq
		rec.seq = nil
		msg = ("R\t%d\t%s\n"):format(item.seq, json.encode(rec))
		rec.seq = rseq
	end
	local ok, err = io.stdout:write(msg)
	if not ok then error("spread: the parent is gone: " .. tostring(err), 0) end
	io.stdout:flush()
end

-- ---- the parent's side ----

-- what the parent reads of a record, checked: the item's own identity,
-- and the types the summary, the progress and the index read
local function valid(rec, item)
	if type(rec) ~= "table" or rec.program ~= item.path or rec.sha256 ~= item.sha256
		or rec.options ~= item.options then
		return false
	end
	if type(rec.verdict) ~= "string" or type(rec.outcome) ~= "string"
		or type(rec.severity) ~= "number" or type(rec.timings) ~= "table"
		or type(rec.timings.elapsed) ~= "number" or type(rec.reasons) ~= "table"
		or (rec.limit ~= nil and type(rec.limit) ~= "string") then
		return false
	end
	for _, f in ipairs(rec.reasons) do
		if type(f) ~= "table" or (f.attack ~= nil and type(f.attack) ~= "table") then return false end
		for _, id in ipairs(f.attack or {}) do
			if type(id) ~= "string" then return false end
		end
	end
	return true
end

local Spread = {}
Spread.__index = Spread

-- starts one more worker; false when none could be started
function Spread:spawn()
	local args = self.args
	-- the worker's slot: the first worker's 0, and so on, a worker
	-- started again after one died taking the next in turn
	if type(args) == "function" then args = args(self.spawned % self.count) end
	local w, msg = core.worker(args)
	if not w then
		self.why = "no worker could be started: " .. tostring(msg)
		return false
	end
	self.spawned = self.spawned + 1
	self.workers[#self.workers + 1] = { w = w, parts = {}, size = 0, out = {}, n = 0 }
	return true
end

-- the next item to send: one to run again first
function Spread:take()
	local seq = table.remove(self.again)
	if seq then return seq end
	if self.next <= #self.items then
		self.next = self.next + 1
		return self.next - 1
	end
	return nil
end

-- keeps a worker a few items ahead; its input ends when none are left
function Spread:feed(wk)
	while not self.stopped and wk.n < self.ahead and not wk.closed do
		local seq = self:take()
		if not seq then break end
		local it = self.items[seq]
		local ok = wk.w:send(("%d\t%s\n"):format(seq, json.encode {
			path = it.path, sha256 = it.sha256, hashes = it.hashes, options = it.options, yara = it.yara }))
		if not ok then
			self.again[#self.again + 1] = seq
			break
		end
		wk.out[seq] = true
		wk.n = wk.n + 1
	end
	if not wk.closed and (self.stopped or (self.next > #self.items and #self.again == 0)) then
		wk.w:close_input()
		wk.closed = true
	end
end

-- an answer is in: its record (or nil when lost or stopped) in order
function Spread:done(seq, rec, line)
	self.ready[seq] = { rec = rec, line = line }
	self.arrived(rec)
	while self.ready[self.first] do
		local r = self.ready[self.first]
		self.ready[self.first] = nil
		self.first = self.first + 1
		if r.rec then self.each(r.rec, r.line) end
	end
end

-- one line of a worker; false when it is not an answer to one of its items
function Spread:line(wk, l)
	local kind, seq, rest = l:match("^([RI])\t(%d+)\t(.*)$")
	seq = tonumber(seq)
	if not seq or not wk.out[seq] then return false end
	if kind == "I" then
		local sig = math.tointeger(tonumber(rest))
		if not sig or sig < 1 or sig > 64 then return false end
		wk.out[seq], wk.n = nil, wk.n - 1
		self:done(seq, nil)
		-- a worker's box stopped by the operator (a terminal's ^C reaches
		-- every worker): the whole batch stops
		if not self.stopped then self:stop(sig) end
		return true
	end
	local ok, rec = pcall(cjson.decode, rest)
	if not ok or not valid(rec, self.items[seq]) then return false end
	wk.out[seq], wk.n = nil, wk.n - 1
	self:done(seq, rec, rest)
	return true
end

-- a worker said what is not an answer: killed, its items run again
local function broken(wk)
	if wk.broken then return end
	wk.broken = true
	wk.w:kill(core.signal.SIGKILL)
end

-- a chunk of a worker's output: each whole line taken (the pieces of a
-- line still to come kept in a list: one copy of each byte)
function Spread:chunk(wk, data)
	-- the last newline (plain finds: a pattern search backtracks from
	-- every start of a chunk without one)
	local last, at = nil, 0
	repeat
		at = data:find("\n", at + 1, true)
		last = at or last
	until not at
	wk.parts[#wk.parts + 1] = data
	wk.size = wk.size + #data
	if not last then
		if wk.size > 256 * 1024 * 1024 then broken(wk) end
		return
	end
	wk.parts[#wk.parts] = data:sub(1, last)
	local whole = table.concat(wk.parts)
	wk.parts, wk.size = { data:sub(last + 1) }, #data - last
	for l in whole:gmatch("([^\n]*)\n") do
		if not wk.broken and not self:line(wk, l) then broken(wk) end
	end
end

-- why a worker's end lost its items
local function why(wk, st)
	if wk.broken then return "its worker answered what is not a record" end
	if st.signal then return "its worker was killed by " .. st.signame end
	return ("its worker exited %d"):format(st.exit or -1)
end

-- a worker's output ended: reaped; its unanswered items run again once,
-- or are recorded lost
function Spread:ended(i)
	local wk = table.remove(self.workers, i)
	local st = wk.w:wait()
	wk.w:close()
	self.why = why(wk, st)
	local seqs = {}
	for seq in pairs(wk.out) do seqs[#seqs + 1] = seq end
	table.sort(seqs, function(a, b) return a > b end)
	for _, seq in ipairs(seqs) do
		if self.stopped then
			self:done(seq, nil)
		elseif (self.tries[seq] or 0) >= 1 then
			local rec = self.lost(self.items[seq], why(wk, st))
			self:done(seq, rec, nil)
		else
			self.tries[seq] = 1
			self.again[#self.again + 1] = seq
		end
	end
	-- a worker to run them (at most twice as many started as asked)
	local left = #self.again > 0 or self.next <= #self.items
	if left and not self.stopped and #self.workers < self.count and self.spawned < 2 * self.count then
		self:spawn()
	end
end

local signame = {}
for name, n in pairs(core.signal) do signame[n] = name end

-- the operator's signal: passed on to every worker, no item sent after it
function Spread:stop(sig)
	self.stopped = self.stopped or { signal = sig, signame = signame[sig] or ("signal %d"):format(sig) }
	for _, wk in ipairs(self.workers) do
		wk.w:kill(sig)
		self:feed(wk)
	end
end

-- the items nobody will run (no worker could be started, or the last
-- one ended before they were sent)
function Spread:orphans()
	while true do
		local seq = self:take()
		if not seq then break end
		self:done(seq, self.lost(self.items[seq], self.why))
	end
end

function Spread:loop()
	while #self.workers > 0 do
		for _, wk in ipairs(self.workers) do self:feed(wk) end
		local ws = {}
		for k, wk in ipairs(self.workers) do ws[k] = wk.w end
		local i, data, sig = core.worker_read(ws)
		if not i then
			if data == "signal" then self:stop(sig) end
		elseif data == "" then
			self:ended(i)
		else
			self:chunk(self.workers[i], data)
		end
	end
	if not self.stopped then self:orphans() end
	-- stopped: what was answered is handed on, in order, past the gaps
	local left = {}
	for seq in pairs(self.ready) do left[#left + 1] = seq end
	table.sort(left)
	for _, seq in ipairs(left) do
		local r = self.ready[seq]
		if r.rec then self.each(r.rec, r.line) end
	end
	self.ready = {}
end

--- Runs the items over `count` workers.
-- @tparam table s `{ items =, args = (the worker's arguments, or a
--  function of the worker's slot, 0 to count - 1, that gives them), count =,
--  ahead = (items sent ahead to each), each = function(rec, line) (in the
--  items' order; line is the worker's JSON text, nil for a record made
--  here), arrived = function(rec) (as each answer comes in; nil for an
--  item stopped), lost = function(item, why) (a record) }`
-- @return the signal that stopped the batch (`{ signal =, signame = }`), or nil
function M.run(s)
	if type(s) ~= "table" or type(s.items) ~= "table"
		or (type(s.args) ~= "table" and type(s.args) ~= "function")
		or math.type(s.count) ~= "integer" or s.count < 1 or s.count > 64 then
		error("bad argument #1 to 'run' (items, args, count 1..64 expected)", 2)
	end
	local self = setmetatable({ items = s.items, args = s.args, count = s.count,
		ahead = s.ahead or 2, each = s.each, arrived = s.arrived or function() end, lost = s.lost,
		workers = {}, again = {}, tries = {}, ready = {}, first = 1, next = 1, spawned = 0 }, Spread)
	core.hold_stops(true)
	local ok, err = pcall(function()
		for _ = 1, math.min(s.count, #s.items) do
			if not self:spawn() then break end
		end
		self:loop()
	end)
	for _, wk in ipairs(self.workers) do wk.w:close() end
	-- a signal held and not yet read is the interpreter's again
	core.hold_stops(false)
	if not ok then error(err, 0) end
	return self.stopped
end

return M
