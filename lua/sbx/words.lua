-- SPDX-License-Identifier: MIT
--- The words of a limit: the report's lines and notes that name a limit,
-- and what a sampled limit leaves out.
-- @module sbx.words
local limits = require "sbx.limits"
local txt = require "sbx.text"

local M = {}

--- What each limit is called on a line: cause -> function(limits) -> text.
M.limit_words = {
	memory = function(l) return "memory limit (" .. txt.format_size(l.memory) .. ")" end,
	cpu = function(l) return "cpu limit (" .. txt.format_duration(l.cpu) .. ")" end,
	tasks = function(l) return ("process limit (%d)"):format(l.tasks) end,
	output = function(l) return "output limit (" .. txt.format_size(l.output) .. ")" end,
	wall = function(l) return "wall clock (" .. txt.format_duration(l.wall) .. ")" end,
	file_size = function(l)
		return "file size limit (" .. txt.format_size(l.file_size) .. ")"
	end,
}

--- A limit's words with its value: `memory limit (512 MiB)`; an error for
-- a cause that is not a limit.
-- @tparam string cause one of `sbx.limits.CAUSE`
-- @tparam[opt] table lim the limits in force (default `sbx.limits.defaults`)
function M.limit_text(cause, lim)
	local f = M.limit_words[cause]
	if not f then
		error(("bad cause '%s'"):format(tostring(cause)), 3)
	end
	return f(lim or limits.defaults)
end

--- The report text for a cause, without the `sandbox: ` prefix:
-- `killed: memory limit (512 MiB)`.
-- @tparam string cause one of `sbx.limits.CAUSE`
-- @tparam[opt] table lim the limits in force (default `sbx.limits.defaults`)
-- @treturn string
function M.killed_line(cause, lim)
	return "killed: " .. M.limit_text(cause, lim)
end

--- The report text of a note on another process of the box that a limit
-- killed: `note: a process was killed by SIGXFSZ at the file size limit
-- (1 MiB)`.
-- @tparam string cause one of `sbx.limits.CAUSE`
-- @tparam string sig the signal's name
-- @tparam[opt] table lim the limits in force (default `sbx.limits.defaults`)
-- @treturn string
function M.note_line(cause, sig, lim)
	if type(sig) ~= "string" then
		error("bad signal name (a " .. type(sig) .. "): expected a string", 2)
	end
	return ("note: a process was killed by %s at the %s"):format(sig, M.limit_text(cause, lim))
end

-- what the record shows when a limit's own signal was not the limit
-- (`sbx.limits.not_limit`)
local not_limit_words = {
	cpu = function(l) return "before the " .. M.limit_words.cpu(l) end,
	file_size = function(l) return "with no file at the " .. M.limit_words.file_size(l) end,
}

--- What the kernel's record shows of a SIGXCPU or SIGXFSZ that was not
-- the limit (the signal's report line ends with it): `before the cpu
-- limit (30 s)`, `with no file at the file size limit (1 MiB)`; nil when
-- the record does not tell (`sbx.limits.not_limit`).
-- @tparam table d the death (see `sbx.limits.death_cause`)
-- @tparam[opt] table lim the limits in force (default `sbx.limits.defaults`)
-- @treturn string|nil
function M.not_limit_text(d, lim)
	lim = lim or limits.defaults
	local which = limits.not_limit(d, lim)
	return which and not_limit_words[which](lim) or nil
end

--- The note on a process of the box other than the command that died of
-- a limit's signal (`sbx.limits.noted`), and the limit it names, if any:
-- `note: a process was killed by SIGXCPU at the cpu limit (1 s)`, `note: a
-- process was killed by SIGXFSZ with no file at the file size limit (1
-- MiB)`, or the signal alone (`note: a process was killed by SIGXCPU`).
-- @tparam table d the death (see `sbx.limits.death_cause`)
-- @tparam[opt] table lim the limits in force (default `sbx.limits.defaults`)
-- @treturn string|nil the note's text, without the `sandbox: ` prefix
-- @treturn string|nil the cause it names (one of `sbx.limits.CAUSE`)
function M.death_note(d, lim)
	lim = lim or limits.defaults
	local noted, cause = limits.noted(d, lim)
	if not noted then return nil end
	local sig = limits.signame(d)
	if cause then return M.note_line(cause, sig, lim), cause end
	local why = M.not_limit_text(d, lim)
	return "note: a process was killed by " .. sig .. (why and " " .. why or ""), nil
end

--- What a sampled memory limit does not count, as the report says it
-- (docs/limits.md, "What the sampler counts, and what it cannot").
-- @tparam[opt] table opts `net_host` (the box shares the host's network
--  namespace: its socket buffers cannot be told from the host's)
-- @treturn string
function M.uncounted(opts)
	if opts ~= nil and type(opts) ~= "table" then
		error("bad argument #1 to 'uncounted' (table expected, got " .. type(opts) .. ")", 2)
	end
	if opts and opts.net_host then return "socket buffers, pipe buffers and kernel objects not counted" end
	return "pipe buffers and kernel objects not counted"
end

-- what the box's claims say a sampled limit leaves out, by limit
function M.uncounted_of(info)
	return { memory = M.uncounted { net_host = info.network == "host" } }
end

--- How the report says an enforcement, where the one word is not all of
-- it: name -> enforcement -> text.
M.enforcement_text = {
	cpu = { sampled = "sampled, box-wide; rlimit per process" },
}

--- The limits as report lines (`limit: memory 512 MiB (cgroup)`,
-- `limit: cpu 30 s (sampled, box-wide; rlimit per process)` ...), in
-- `sbx.limits.names` order.
-- @tparam table lim resolved limits
-- @tparam[opt] table how the table of `sbx.limits.enforcement`
-- @tparam[opt] table notes name -> what the enforcement leaves out, said
--  after it where that is `"sampled"` (`limit: memory 512 MiB (sampled;
--  pipe buffers and kernel objects not counted)`)
-- @treturn table list of strings
function M.limit_lines(lim, how, notes)
	local out = {}
	for _, name in ipairs(limits.names) do
		local v, kind = lim[name], limits.kinds[name]
		local text
		if kind == "size" then
			text = txt.format_size(v)
		elseif kind == "duration" then
			text = txt.format_duration(v)
		else
			text = tostring(v)
		end
		local h = how and how[name]
		h = h and (M.enforcement_text[name] and M.enforcement_text[name][h] or h)
		if how and how[name] == "sampled" and notes and notes[name] then h = h .. "; " .. notes[name] end
		out[#out + 1] = ("limit: %s %s%s"):format((name:gsub("_", " ")), text,
			h and " (" .. h .. ")" or "")
	end
	return out
end

return M
