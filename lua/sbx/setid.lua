-- SPDX-License-Identifier: MIT
--- Set-id files left by a box: after a run, every writable host directory
-- the box had is scanned and the set-user-ID and set-group-ID bits of the
-- files the box's host id owns there are cleared, so that nothing the box
-- made runs with its host id for another local user.  The default seccomp
-- profile already refuses the calls that set those bits; this catches what
-- a filter cannot see (another profile, a call whose mode is in memory).
-- The walk is `sbx.core.clear_setid` (core/api/walk.c): by descriptor, never
-- following a symlink, bounded in depth and entries.
-- @module sbx.setid
local core = require "sbx.core"

local M = {}

local ipairs, sort = ipairs, table.sort

-- errno names by number; of two names of one number the first in sort
-- order, so a report says the same every time
local errname = {}
do
	for _, k in ipairs(require("sbx.json").sorted_keys(core.errno)) do
		local n = core.errno[k]
		if errname[n] == nil then errname[n] = k end
	end
end

local function join(dst, rel)
	if rel == "." or rel == "" then return dst end
	if dst == "/" then return "/" .. rel end
	return dst .. "/" .. rel
end

--- Scans each directory and clears the set-id bits it finds.
-- @tparam table dirs list of `{src = host path, dst = path inside the box}`
--  (the `--rw` binds; `src` resolved before the run)
-- @tparam[opt] table opts `uid`: clear only files of this owner (the box's
--  host id; others are not the box's doing and are left, unreported);
--  `max_depth`, `max_entries`: bounds of each walk
-- @treturn table a list of events, sorted by path within each directory, each
--  `{kind = "setid", action = A, path = P [, errno = NAME] [, limit = N]}`,
--  with paths as the box saw them: A is `"cleared"`, `"failed"` (errno
--  says why), or `"unchecked"` (a directory not looked into: errno says
--  why, or `limit` the number of entries after which the walk stopped)
function M.clear(dirs, opts)
	opts = opts or {}
	local events = {}
	local function add(e)
		e.kind = "setid"
		events[#events + 1] = e
	end
	for _, d in ipairs(dirs) do
		local r, _, err = core.clear_setid(d.src, { uid = opts.uid,
			max_depth = opts.max_depth, max_entries = opts.max_entries })
		local first = #events + 1
		if not r then
			add { action = "unchecked", path = d.dst, errno = errname[err] or "EUNKNOWN" }
		else
			for _, f in ipairs(r.found) do
				if f.action == "cleared" then
					add { action = "cleared", path = join(d.dst, f.path) }
				elseif f.action == "failed" then
					add { action = "failed", path = join(d.dst, f.path), errno = f.errname }
				end
			end
			for _, e in ipairs(r.errors) do
				add { action = "unchecked", path = join(d.dst, e.path), errno = e.errname }
			end
			if r.truncated == "entries" then
				add { action = "unchecked", path = d.dst, limit = r.entries }
			end
		end
		-- by path: the order of a directory's entries is the file
		-- system's, and two runs of one case must report the same bytes
		local part = { table.unpack(events, first) }
		sort(part, function(a, b)
			if a.path ~= b.path then return a.path < b.path end
			return a.action < b.action
		end)
		table.move(part, 1, #part, first, events)
	end
	return events
end

--- The standard box's scan after a run: its `--rw` directories, files of
-- its host id (`info` from `sbx.stdbox.build`).
-- @tparam table info the claims of `sbx.stdbox.build` (`rw`, `host_uid`)
-- @treturn table a list of events (see `M.clear`)
function M.after_run(info)
	return M.clear(info.rw or {}, { uid = info.host_uid })
end

return M
