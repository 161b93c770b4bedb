-- SPDX-License-Identifier: MIT
--- sbx._sigma_events: the events a Sigma rule is matched against, made
-- from a run's facts (`sbx.facts`) once per facts table and category
-- (`sbx.sigma` says which fields each category has), and each event's
-- fields lowered once for a case-insensitive match.
-- @module sbx._sigma_events
local auditd = require "sbx._sigma_auditd"

local M = {}

local KW = auditd.TEXT
local LOWER = {} -- an event's lowered fields, by field

--- A field of an event, lowered (ASCII), lowered once per event.
-- @tparam table ev an event of `M.of`
-- @tparam string field
-- @treturn string
function M.lowered(ev, field)
	local l = ev[LOWER]
	local v = l[field]
	if v == nil then
		v = ev[field]:lower()
		l[field] = v
	end
	return v
end

local function str(n)
	if n == nil then return nil end
	return tostring(math.tointeger(n) or n)
end

local function new_event(t)
	for k, v in pairs(t) do
		if type(v) ~= "string" then t[k] = tostring(v) end
	end
	t[LOWER] = {}
	return t
end

local BUILD = {}

function BUILD.process_creation(F)
	local out = {}
	for _, x in ipairs(F.execs or {}) do
		out[#out + 1] = new_event {
			Image = x.image, CommandLine = x.cmdline, ParentImage = x.parent_image,
			ParentCommandLine = x.parent_cmdline, User = "sbx", CurrentDirectory = x.cwd,
			ProcessId = str(x.pid), ParentProcessId = str(x.ppid),
		}
	end
	return out
end

function BUILD.file_event(F)
	local out, seen = {}, {}
	local function add(path, image)
		local k = tostring(path) .. "\0" .. tostring(image)
		if type(path) == "string" and not seen[k] then
			seen[k] = true
			out[#out + 1] = new_event { TargetFilename = path, Image = image }
		end
	end
	for _, o in ipairs(F.opens or {}) do
		if o.write then add(o.path, o.image) end
	end
	for _, w in ipairs(F.written or {}) do add(w.path, w.image) end
	return out
end

function BUILD.network_connection(F)
	local out, seen = {}, {}
	local function add(c, image)
		local port = str(c.port)
		seen[("%s %s %s"):format(c.ip, port, c.protocol)] = true
		out[#out + 1] = new_event { DestinationIp = c.ip, DestinationPort = port,
			DestinationHostname = c.hostname, Image = image, Initiated = "true", Protocol = c.protocol }
	end
	for _, c in ipairs(F.connects or {}) do add(c, c.image) end
	for _, t in ipairs(F.traffic or {}) do
		if not seen[("%s %s %s"):format(t.ip, str(t.port), t.protocol)] then add(t, nil) end
	end
	return out
end

function BUILD.auditd(F)
	local out = auditd.events(F)
	for i, r in ipairs(out) do out[i] = new_event(r) end
	return out
end

-- a script's logical lines (`facts.scripts`, where the facts have them:
-- a list, or a map by pid, of `{ lines = {...} }` or `{ text = }`)
local function script_lines(s)
	if type(s) ~= "table" then return {} end
	if type(s.lines) == "table" then return s.lines end
	if type(s.text) == "table" then return s.text end
	local out = {}
	if type(s.text) == "string" then
		for l in (s.text .. "\n"):gmatch("([^\n]*)\n") do out[#out + 1] = l end
	end
	return out
end

-- `product: linux` with no category: one event per command line and per
-- line of a script the run's interpreters read
function BUILD.keywords(F)
	local out = {}
	for _, x in ipairs(F.execs or {}) do
		if type(x.cmdline) == "string" then
			out[#out + 1] = new_event { [KW] = x.cmdline, ["|what"] = "command line", ["|image"] = x.image }
		end
	end
	local scripts = type(F.scripts) == "table" and F.scripts or {}
	local keys = {}
	for k in pairs(scripts) do keys[#keys + 1] = k end
	table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
	for _, k in ipairs(keys) do
		local s = scripts[k]
		for _, l in ipairs(script_lines(s)) do
			if type(l) == "string" and l ~= "" then
				out[#out + 1] = new_event { [KW] = l, ["|what"] = "script line",
					["|image"] = type(s.source) == "string" and s.source or s.path }
			end
		end
	end
	return out
end

local cache = setmetatable({}, { __mode = "k" })

--- A category's events of a run's facts, made once per facts table.
-- @tparam table F the facts
-- @tparam string cat a category of `sbx.sigma` (or `auditd`, `keywords`)
-- @treturn table list of events
function M.of(F, cat)
	if type(F) ~= "table" or not BUILD[cat] then
		error(("bad argument to 'of' (facts and a category expected, got %s, %s)"):format(type(F), tostring(cat)), 2)
	end
	local c = cache[F]
	if not c then
		c = {}
		cache[F] = c
	end
	if not c[cat] then c[cat] = BUILD[cat](F) end
	return c[cat]
end

return M
