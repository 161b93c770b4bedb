-- SPDX-License-Identifier: MIT
--- sbx.learn: a profile learned from a run under the strict profile in
-- log mode (`learn.lua`): the strict profile plus one addition per thing
-- the run used (calls, opened paths, paths changed, addresses, the
-- largest mapping), each with a comment naming the events it came from.
-- See docs/seccomp.md, "Learning a profile".
-- @module sbx.learn
local report = require "sbx.report"
local json = require "sbx.json"
local profile = require "sbx.profile"
local cli = require "sbx.cli"

local M = {}

local reason = cli.reason

-- The calls the default profile refuses (always or on a condition) or
-- watches: a learned profile never allows them, whatever the run used.
local function default_refusals()
	local d = assert(profile.load("default"))
	local set = {}
	for _, r in ipairs(d.rules) do set[r.call] = true end
	-- its watched calls too (memfd_create): an allow rule would take
	-- them from the supervisor, which makes and counts each memfd
	for _, c in ipairs(d.watched or {}) do set[c] = true end
	return set
end

-- What the strict profile itself allows unconditionally.
local function strict_allows(p)
	local set = {}
	for _, r in ipairs(p.rules) do
		if r.action == "allow" and r.args == nil then set[r.call] = true end
	end
	return set
end

--- The additions: calls, opens, changed paths (deleted, renamed, their
-- attributes changed) and addresses, each name -> { n = events,
-- union = bool }; mmap = { size =, n = } the largest mapping.
function M.new()
	return { calls = {}, open = {}, made = {}, change = {}, connect = {}, refused = {}, mmap = nil }
end

-- the fresh root (sbx.stdbox's claims `fresh`: a writable place of the
-- box's own, empty at every start) a path lies strictly under, or nil
local function fresh_root(p, fresh)
	for _, root in ipairs(fresh) do
		if p:sub(1, #root + 1) == root .. "/" then return root end
	end
	return nil
end

local function note(t, key, n, from_union)
	local e = t[key] or { n = 0 }
	t[key] = e
	if from_union then e.union = true else e.n = e.n + n end
end

local INET = { inet = true, inet6 = true }

local function learn_events(L, events, refusals, base, fresh)
	for _, e in ipairs(events) do
		local n = e.count or 1
		if e.kind == "open" and e.path then
			-- a path the supervisor could not read whole is "?", and one it
			-- could not name against the cwd stays relative: neither is a
			-- path to allow (the box chooses them; "?" would let every
			-- unreadable path through in later runs).  Under a fresh root,
			-- the program made the name (a temporary one differs from run
			-- to run): the root is learned, beneath which it makes names
			local root = fresh_root(e.path, fresh)
			if root then
				note(L.made, root, n)
			elseif e.path:sub(1, 1) == "/" then
				note(L.open, e.path, n)
			end
		elseif (e.kind == "delete" or e.kind == "rename" or e.kind == "attribute") and e.path then
			-- a rename names both; the same care as for an open's path
			for _, p in ipairs { e.path, e.to } do
				if p:sub(1, 1) == "/" then note(L.change, fresh_root(p, fresh) or p, n) end
			end
		elseif (e.kind == "connect" or e.kind == "bind" or e.kind == "send") and INET[e.family] and e.addr then
			note(L.connect, e.addr, n)
		elseif e.kind == "mmap" and e.size then
			local m = L.mmap or { size = 0, n = 0 }
			L.mmap = m
			m.n = m.n + n
			if e.size > m.size then m.size = e.size end
		elseif e.kind == "syscall" or e.kind == "ptrace" or (e.kind == "clone" and e.namespaces) then
			local what = e.kind == "clone" and "clone with namespace flags" or e.syscall
			if e.kind == "syscall" and not refusals[e.syscall] and not base[e.syscall] then
				note(L.calls, e.syscall, n)
			else
				note(L.refused, what, n)
			end
		end
	end
end

--- What a learned profile FILE adds to the strict profile, into L (marked
-- as from --union).  FILE is loaded as every profile is (sbx.profile:
-- checked, no symlink, an empty environment).
-- @return L, or nil, why not
function M.union(L, file, strict)
	local p, msg = profile.load(file)
	if p == nil then return nil, reason(msg) end
	if type(p) ~= "table" or type(p.rules) ~= "table" or type(p.notify) ~= "table" then
		return nil, "not a learned profile"
	end
	local base = strict_allows(strict)
	for _, r in ipairs(p.rules) do
		if r.action == "allow" and r.args == nil and not base[r.call] then
			note(L.calls, r.call, 0, true)
		end
	end
	-- the prefixes: the fresh roots the program made names beneath
	for _, path in ipairs(p.notify.open or {}) do note(L.made, path, 0, true) end
	for _, path in ipairs(p.notify.open_exact or {}) do note(L.open, path, 0, true) end
	for _, path in ipairs(p.notify.change or {}) do note(L.change, path, 0, true) end
	for _, a in ipairs(p.notify.connect or {}) do note(L.connect, a, 0, true) end
	local cap = p.notify.mmap_cap
	if cap and cap > (strict.notify.mmap_cap or 0) and (not L.mmap or cap > L.mmap.size) then
		L.mmap = { size = cap, n = L.mmap and L.mmap.n or 0, union = true }
	elseif cap and L.mmap and cap == L.mmap.size then
		L.mmap.union = true
	end
	return L
end


-- where an addition came from, for its comment
local function from(kind, e)
	local s = {}
	if e.n > 0 then s[#s + 1] = ("%s, %d event%s"):format(kind, e.n, e.n == 1 and "" or "s") end
	if e.union then s[#s + 1] = "from --union" end
	return table.concat(s, "; ")
end

-- A Lua string literal on one line: %q, with a newline as \n
local function lit(s)
	return (("%q"):format(s):gsub("\\\n", "\\n"))
end

-- One list of the explain channel's table: `notify.NAME = { ... }`, each
-- entry with where it came from.
local function list(w, name, t, kind)
	w("notify." .. name .. " = {\n")
	for _, k in ipairs(json.sorted_keys(t)) do
		w(("\t%s, -- %s\n"):format(lit(k), from(kind, t[k])))
	end
	w("}\n")
end

--- The learned profile's text: Lua that loads the strict profile and
-- adds what L holds, each addition with a comment naming its events.
-- @tparam table L from `M.new`, `M.events`, `M.union`
-- @tparam table argv the program and its arguments (named in a comment)
-- @treturn string
function M.render(L, argv)
	local b = {}
	local function w(s) b[#b + 1] = s end
	w("-- A learned profile, written by `sbxlua learn.lua`: the strict profile and what\n")
	w("-- a run of the program below used (docs/seccomp.md, \"Learning a profile\").\n")
	w("-- Data, not code: loaded in an empty environment like every profile.\n")
	w("-- Run it with: sbxlua run.lua --profile FILE --mode stop PROG ...\n")
	w("-- program: " .. report.escape(table.concat(argv, " ")) .. "\n")
	if next(L.refused) then
		w("-- not allowed (a learned profile never allows what the default profile\n")
		w("-- refuses, nor a namespace):\n")
		for _, k in ipairs(json.sorted_keys(L.refused)) do
			w("--   " .. report.escape(k) .. ": " .. from("seen", L.refused[k]) .. "\n")
		end
	end
	w("local p = (...).load(\"strict\")\n")
	w("local rules, notify = p.rules, p.notify\n")
	w("\n-- calls the strict lists lack\n")
	for _, k in ipairs(json.sorted_keys(L.calls)) do
		w(("rules[#rules + 1] = { call = %s, action = \"allow\" } -- %s\n"):format(lit(k),
			from("syscall " .. k, L.calls[k])))
	end
	w("\n-- opens: the paths opened, exactly: an opened directory allows itself (and\n")
	w("-- the reading of its entries), nothing that lies under it.\n")
	w("-- The mounts and Landlock still decide what each path reaches.\n")
	list(w, "open_exact", L.open, "open")
	w("\n-- names the program made: the box's own writable places that start empty\n")
	w("-- in every run (/tmp, /dev/shm, the home or /work when nothing is placed\n")
	w("-- there): a name under one is the program's own, and a temporary name\n")
	w("-- differs from run to run, so the place is allowed, with what lies under it.\n")
	list(w, "open", L.made, "open of a name made under it")
	w("\n-- changes: the paths deleted, renamed (both names) or whose attributes\n")
	w("-- changed, exactly, as for opens.\n")
	list(w, "change", L.change, "delete, rename or attribute")
	w("\n-- addresses connected to, bound or sent to (ip:port)\n")
	list(w, "connect", L.connect, "connect, bind or send")
	if L.mmap then
		w(("\nnotify.mmap_cap = %d -- %s, the largest mapping\n"):format(L.mmap.size,
			from("mmap", L.mmap)))
	end
	w("\nreturn p\n")
	return table.concat(b)
end

--- Adds what a run's events used to L: the calls the strict lists lack
-- (never one the default profile refuses: those are listed as not
-- allowed), the paths, the addresses, the largest mapping.
-- @tparam table L from `M.new`
-- @tparam table events the run's events (`r.events`)
-- @tparam table strict the strict profile (`sbx.profile.load`)
-- @tparam[opt] table fresh the box's writable places that start empty
--  (sbx.stdbox's claims `fresh`): a path under one is learned as the place
function M.events(L, events, strict, fresh)
	learn_events(L, events, default_refusals(), strict_allows(strict), fresh or {})
	return L
end

return M
