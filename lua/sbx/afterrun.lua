--- sbx.afterrun: what a run of the standard box goes through once the box
-- is gone, the same for `run.lua`, `batch.lua` and the REPL's explore: the
-- set-id sweep of its `--rw` directories, the files it wrote (hashed), the
-- decoys' markers found leaving, the events, the verification of the
-- claims, and the structured result with the sink's records and the
-- behaviour summary.
-- @module sbx.afterrun
local report = require "sbx.report"
local setid = require "sbx.setid"
local written = require "sbx.written"
local sink = require "sbx.sink"
local behaviour = require "sbx.behaviour"

local M = {}

--- A decoy's marker found outside the decoy: an event with fields (a rule
-- reads `decoy`, `path` and `where`), and its report line.
-- @tparam table hit from `sbx.written.marker_hits`
-- @tparam table decoys the placed decoys (`info.decoys`)
function M.decoy_event(hit, decoys)
	local e = report.decoy_note(hit)
	e.decoy, e.where = hit.decoy, hit.where
	for _, d in ipairs(decoys or {}) do
		if d.name == hit.decoy then e.path = d.path end
	end
	return e
end

--- The events and the verified claims of a run (`sbx.report.events` and
-- `sbx.report.verify`), with the set-id sweep's and the decoys' events;
-- sets `info.files` (the written files, `sbx.written.files`).
-- @param r the box's result
-- @param info the build's info (`sbx.backend.build`)
-- @param host the caller's namespace ids (`sbx.ns_ids()`)
-- @treturn table events
-- @treturn table verified
function M.collect(r, info, host)
	-- no set-id file of the box's host id stays in a --rw directory
	local swept = setid.after_run(info)
	info.files = r.files and written.files(r, info.decoys, info.mount_points) or nil
	local hits = info.decoys and written.marker_hits(r, info.files or {}, info.decoys) or {}
	local events = report.events(r, info)
	for _, e in ipairs(swept) do events[#events + 1] = e end
	for _, h in ipairs(hits) do events[#events + 1] = M.decoy_event(h, info.decoys) end
	if info.run_as then
		events[#events + 1] = { kind = "note", cause = "run_as",
			text = ("note: not executable: run by its content: %s %s"):format(
				table.concat(info.run_as, " "), info.program) }
	end
	return events, report.verify(r, info, host)
end

--- The structured result of a run (`sbx.report.result`), with the sink's
-- records and the behaviour summary.
-- @treturn table
function M.result(r, info, events, verified)
	local res = report.result(r, info, events, verified)
	-- a sample run by its content says so (the interpreter put before it)
	res.run_as = info.run_as
	if r.sink then sink.json(r, res) end
	res.behaviour = behaviour.summary(res)
	return res
end

return M
