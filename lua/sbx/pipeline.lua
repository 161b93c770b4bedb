-- SPDX-License-Identifier: MIT
--- sbx.pipeline: one run of the standard box, the same steps for every
-- script (`run.lua`, `learn.lua`, `check.lua`, `sbx.batch`, and so the
-- REPL's explore, which runs `run.lua`): settle (the profile's filter, what
-- a refusal does, its table) -> build (the backend's spec) -> run ->
-- sweep and record once the box is gone (the set-id sweep of its `--rw`
-- directories, the files it wrote, hashed, the decoys' markers found
-- leaving, the events, the verification of the claims) -> the structured
-- result with the sink's records and the behaviour summary.  The scripts
-- differ only in what they print.  A step that cannot be done returns
-- nil and an error `{ msg =, option =, typed =, program = }`: `option`
-- the option it concerns (`--profile`, `--cgroup`, ...), `program` when it
-- is the program's; said by `sbx.cli.fail`.
-- @module sbx.pipeline
local sbx = require "sbx"
local report = require "sbx.report"
local setid = require "sbx.setid"
local written = require "sbx.written"
local sink = require "sbx.sink"
local profile = require "sbx.profile"
local backend = require "sbx.backend"
local cli = require "sbx.cli"
local argcheck = require("sbx._arg").check

local M = {}

--- A request as no later step may change it: reads give its fields,
-- `pairs` walks them, a write is an error naming the field.  (Its lists
-- are the settled request's own copies, not the caller's.)
-- @tparam table t
-- @treturn table
function M.freeze(t)
	argcheck(t, "table", 1, "freeze")
	return setmetatable({}, {
		__index = t,
		__newindex = function(_, k)
			error(("the settled request is read-only (a write of '%s')"):format(tostring(k)), 2)
		end,
		__pairs = function() return next, t, nil end,
		__len = function() return #t end,
		__name = "sbx.request",
	})
end

--- Settles the options o once into the request every later step reads
-- and none writes (`M.freeze`): a copy of o with the profile's name, its
-- filter (`filter`: false for the profile `none`), what a refusal the
-- filter sends to sbxlua does (`mode`: the one typed, else the profile's
-- own, else `deny`) and the explain channel's table (`notify`: the
-- profile's).  The profile's refusals are named in the report, their
-- errnos unchanged.  o is not changed.
-- @tparam table o the options of `sbx.stdbox.build`
-- @return the request, and the loaded profile; or nil, err
function M.settle(o)
	argcheck(o, "table", 1, "settle")
	local req = {}
	for k, v in pairs(o) do req[k] = v end
	req.profile = require("sbx.stdbox").profile_name(o)
	local filter, prof = profile.filter(req.profile, { name_refusals = true })
	if filter == nil then
		-- a profile refused or malformed, or libseccomp's failure
		local msg = prof:find("^profile ") and cli.reason(prof) or prof
		return nil, { option = "--profile", typed = req.profile, msg = msg }
	end
	local pmode, ntable = profile.notify(prof)
	req.filter, req.mode, req.notify = filter, o.mode or pmode or "deny", ntable
	return M.freeze(req), prof
end

--- Builds the box of o with its backend (`sbx.backend.build`).
-- @return spec, info; or nil, err
function M.build(o)
	local spec, info, option = backend.build(o)
	if spec then return spec, info end
	-- a refusal of an option the operator typed names that option, not
	-- the program (`--image ...: cannot unpack ...`)
	if option then return nil, { option = option, msg = info } end
	return nil, { program = o.prog, msg = info }
end

--- Builds and runs the box of o.
-- @return the core's result and the build's info; or nil, err
function M.run(o)
	local spec, info = M.build(o)
	if not spec then return nil, info end
	local r, msg, _, field = backend.run(spec, info)
	if r then return r, info end
	-- a base the operator names must work (the core probes it and
	-- refuses the box, naming the spec's field): never a silent fallback
	if field == "cgroup" and type(o.cgroup) == "string" then
		return nil, { option = "--cgroup", typed = o.cgroup, msg = cli.reason(msg) }
	end
	return nil, { msg = msg }
end

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

--- The events and the verified claims of a run once its box is gone (`sbx.report.events` and
-- `sbx.report.verify`), with the set-id sweep's and the decoys' events;
-- sets `info.files` (the written files, `sbx.written.files`).
-- @param r the box's result
-- @param info the build's info (`sbx.backend.build`)
-- @param[opt] host the caller's namespace ids (default `sbx.ns_ids()`)
-- @treturn table events
-- @treturn table verified
function M.collect(r, info, host)
	host = host or sbx.ns_ids()
	-- no set-id file of the box's host id stays in a --rw directory
	local swept = setid.after_run(info)
	info.files = r.files and written.files(r, info.decoys, info.mount_points) or nil
	local hits = info.decoys and written.marker_hits(r, info.files or {}, info.decoys) or {}
	local events = report.events(r, info)
	for _, e in ipairs(swept) do events[#events + 1] = e end
	for _, h in ipairs(hits) do events[#events + 1] = M.decoy_event(h, info.decoys) end
	if info.run_as then
		events[#events + 1] = report.run_as_note(info)
	end
	for _, n in ipairs(require("sbx.stdbox").arg_notes(info)) do events[#events + 1] = n end
	-- a refusal the program did not get past (sbx.verdict), in the
	-- analysis box
	if info.refusal_end then events[#events + 1] = require("sbx.verdict").refusal_end(r) end
	return events, report.verify(r, info, host)
end

--- The structured result of a run (`sbx.report.result`), with the sink's
-- records and the behaviour summary.
-- @treturn table
function M.result(r, info, events, verified)
	-- loaded by the runs that ask for a result only (from sbxlua's own
	-- directory, first on package.path, which no box can write: docs/performance.md)
	local behaviour = require "sbx.behaviour"
	local res = report.result(r, info, events, verified)
	-- a sample run by its content says so (the interpreter put before it)
	res.run_as = info.run_as
	-- the script the command line named that the box lacks: the
	-- program never ran it (the never_ran rule)
	res.script_missing = info.script_missing
	if r.sink then sink.json(r, res) end
	-- the capture's path, once it is written (`run.lua --pcap`)
	res.pcap, res.pcap_left_out = info.pcap, info.pcap_left_out
	res.behaviour = behaviour.summary(res)
	return res
end

return M
