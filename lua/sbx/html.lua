-- SPDX-License-Identifier: MIT
--- sbx.html: one run as one self-contained HTML page, and a batch's
-- index of such pages.  The page is built from the structured result
-- (`sbx.pipeline.result`, what `run.lua --json` writes) and its behaviour
-- summary: the verdict and its findings with their ATT&CK ids, the
-- report's lines, the process tree, a timeline (when the events carry
-- `time_ms`), the network (traffic, DNS, HTTP), the dropped files, the
-- refused calls, the limits set and measured, and the isolation claims
-- as the result states them.  A section shows only when its data is
-- there.
--
-- Every string that came out of a box is hostile: a program names its
-- own argv, files and hosts.  Each reaches the page through `M.text`
-- only, as element text, never in an attribute or in a tag's name;
-- control bytes, bytes that are not UTF-8 and the code points that
-- reorder or hide text are shown as escapes.  The page loads nothing
-- (a Content-Security-Policy of `default-src 'none'`, its only style
-- inline) and holds no script.
-- @module sbx.html
local core = require "sbx.core"
local report = require "sbx.report"
local limits = require "sbx.limits"
local argcheck = require("sbx._arg").check

local M = {}

local concat, sort = table.concat, table.sort

--- The page's Content-Security-Policy: nothing loaded, no script run,
-- only the page's own inline style.
M.CSP = "default-src 'none'; style-src 'unsafe-inline'"

--- The title of every page (never a box's string).
M.TITLE = "sbxlua report"

local ENTITY = { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;", ['"'] = "&quot;", ["'"] = "&#39;" }
local NAMED = { [9] = "\\t", [10] = "\\n", [13] = "\\r" }

-- an escape shown as one, on its own background
local function esc(s)
	return '<span class="esc">' .. s .. "</span>"
end

-- code points that are valid UTF-8 but reorder, hide or break the text
-- around them: C1 controls, bidirectional marks and isolates, zero-width
-- and line separators, the byte order mark, noncharacters, tags
local function hidden(cp)
	return cp < 0xa0 or cp == 0xad or cp == 0x61c or (cp >= 0x200b and cp <= 0x200f)
		or (cp >= 0x2028 and cp <= 0x202e) or (cp >= 0x2060 and cp <= 0x206f)
		or cp == 0xfeff or (cp >= 0xfdd0 and cp <= 0xfdef) or cp & 0xfffe == 0xfffe
		or (cp >= 0xfff9 and cp <= 0xfffb) or (cp >= 0xe0000 and cp <= 0xe007f)
end

-- the UTF-8 sequence at i of s, if one is there: its bytes and code point
local function sequence(s, i)
	local c = s:byte(i)
	local n = (c >= 0xc2 and c <= 0xdf and 2) or (c >= 0xe0 and c <= 0xef and 3)
		or (c >= 0xf0 and c <= 0xf4 and 4) or nil
	if not n then return nil end
	local seq = s:sub(i, i + n - 1)
	-- strict: no overlong form, no surrogate, nothing past U+10FFFF
	if #seq ~= n or utf8.len(seq) ~= 1 then return nil end
	return seq, utf8.codepoint(seq)
end

--- Any value as HTML text: `&`, `<`, `>`, `"` and `'` as entities; tab,
-- newline and carriage return as `\t`, `\n`, `\r`, every other control
-- byte and every byte that is not part of a UTF-8 sequence as `\xHH`,
-- a code point that reorders or hides text as `\u{HHHH}`, each escape
-- on a shaded background.  Printable text passes as it is.  The result
-- is valid inside any element of the page.
-- @param v a string (anything else through `tostring`)
-- @treturn string
function M.text(v)
	local s = tostring(v)
	local out, i, n = {}, 1, #s
	while i <= n do
		local j = s:find("[^\32-\126]", i) or n + 1
		if j > i then out[#out + 1] = (s:sub(i, j - 1):gsub("[&<>\"']", ENTITY)) end
		if j > n then break end
		local c = s:byte(j)
		local seq, cp = sequence(s, j)
		if seq and not hidden(cp) then
			out[#out + 1] = seq
		elseif seq then
			out[#out + 1] = esc(("\\u{%04X}"):format(cp))
		else
			out[#out + 1] = esc(NAMED[c] or ("\\x%02x"):format(c))
		end
		i = j + (seq and #seq or 1)
	end
	return concat(out)
end

local text = M.text

-- ---- building blocks ----

local function list_of(v)
	return type(v) == "table" and v or {}
end

-- the records of a list: its elements that are tables
local function records(v)
	local out = {}
	for _, e in ipairs(list_of(v)) do
		if type(e) == "table" then out[#out + 1] = e end
	end
	return out
end

local function events_of(res)
	return records(res.events)
end

-- a table: head a list of column names (nil: a table of names and
-- values, the first cell of each row its heading), rows a list of lists
-- of cells, each already HTML; a column empty in every row is left out
local function table_of(head, rows)
	local cols = {}
	for k = 1, head and #head or 2 do
		local used = not head
		for _, r in ipairs(rows) do used = used or (r[k] or "") ~= "" end
		if used then cols[#cols + 1] = k end
	end
	local out = { head and "<table><thead><tr>" or "<table>" }
	for _, k in ipairs(head and cols or {}) do out[#out + 1] = "<th>" .. head[k] .. "</th>" end
	out[#out + 1] = head and "</tr></thead><tbody>" or "<tbody>"
	for _, r in ipairs(rows) do
		out[#out + 1] = "<tr>"
		for i, k in ipairs(cols) do
			local tag = (not head and i == 1) and "th" or "td"
			out[#out + 1] = ("<%s>%s</%s>"):format(tag, r[k] or "", tag)
		end
		out[#out + 1] = "</tr>"
	end
	out[#out + 1] = "</tbody></table>"
	return concat(out)
end

local function section(id, title, body)
	if not body or body == "" then return "" end
	return ('<section id="%s"><h2>%s</h2>%s</section>\n'):format(id, title, body)
end

local function code(v)
	if v == nil then return "" end
	return "<code>" .. text(v) .. "</code>"
end

-- a number as digits (a JSON round trip makes 4444 a float)
local function num(v)
	local n = math.tointeger(tonumber(v))
	if n then return ("%d"):format(n) end
	return v == nil and "" or text(v)
end

local function size(v)
	local n = math.tointeger(tonumber(v))
	return n and text(report.format_size(n)) or num(v)
end

-- the words of an event: a notified call's (`sbx.report.call_words`),
-- else the report's line, else its kind
local function event_words(e)
	if report.is_call(e) then
		local ok, w = pcall(report.call_words, e)
		if ok then return w end
	end
	local ok, l = pcall(report.line, e)
	return ok and l or tostring(e.kind)
end

-- ---- sections ----

-- the verdict, its findings and their ATT&CK ids
local function verdict_section(v)
	if type(v) ~= "table" or v.verdict == nil then return "" end
	local body = { ('<p class="verdict">verdict: <b>%s</b> (severity %s)</p>'):format(
		text(v.verdict), num(v.severity or 0)) }
	local rows = {}
	for _, f in ipairs(records(v.reasons)) do
		local ids = {}
		for _, id in ipairs(list_of(f.attack)) do ids[#ids + 1] = code(id) end
		rows[#rows + 1] = { code(f.rule), text(f.verdict or ""), num(f.severity),
			concat(ids, " "), text(f.tactic or ""), text(f.reason or f.error or "") }
	end
	if #rows > 0 then
		body[#body + 1] = table_of({ "rule", "verdict", "severity", "ATT&amp;CK", "tactic", "finding" }, rows)
	end
	return section("verdict", "Verdict", concat(body))
end

-- what ran: the program and its arguments, the outcome
local function run_section(res, meta)
	local rows = {}
	if meta.program then rows[#rows + 1] = { "program", code(meta.program) } end
	if meta.sha256 then rows[#rows + 1] = { "sha256", code(meta.sha256) } end
	local args = {}
	for i, a in ipairs(list_of(meta.args)) do args[i] = "<li>" .. code(a) .. "</li>" end
	if #args > 0 then rows[#rows + 1] = { "arguments", "<ol>" .. concat(args) .. "</ol>" } end
	local b = type(res.behaviour) == "table" and res.behaviour or {}
	if b.command then rows[#rows + 1] = { "command seen", code(b.command) } end
	-- a sample run by its content: the interpreter or loader put before it
	if type(res.run_as) == "table" then
		local by = {}
		for i, a in ipairs(res.run_as) do by[i] = code(a) end
		rows[#rows + 1] = { "run by", concat(by, " ") }
	end
	rows[#rows + 1] = { "outcome", text(res.outcome or "?") }
	rows[#rows + 1] = { "exit code", num(res.exit_code) }
	if b.behash then rows[#rows + 1] = { "behash", code(b.behash) } end
	local tags = {}
	for i, t in ipairs(list_of(b.tags)) do tags[i] = text(t) end
	if #tags > 0 then rows[#rows + 1] = { "tags", concat(tags, " ") } end
	return section("run", "Run", table_of(nil, rows))
end

-- the sample's own hashes and type (`sbx.sample`; a batch record's
-- fields, meta); empty when there are none
local SAMPLE_ROWS = { "path", "size", "type", "md5", "sha1", "sha256", "ssdeep", "tlsh" }
local function sample_section(res, meta)
	local s = type(res.sample) == "table" and res.sample or meta
	local rows = {}
	for _, k in ipairs(SAMPLE_ROWS) do
		local v = s[k]
		if type(v) == "number" then
			rows[#rows + 1] = { k, num(v) }
		elseif type(v) == "string" and (k ~= "path" or s == res.sample) then
			rows[#rows + 1] = { k, code(v) }
		end
	end
	if not (s.md5 or s.sha1) then return "" end
	return section("sample", "Sample", table_of(nil, rows))
end

-- the report's own lines (`sbx.report.line`), as the text report says them
local function report_section(res)
	local lines = {}
	for _, e in ipairs(events_of(res)) do
		local ok, l = pcall(report.line, e)
		if ok and l then lines[#lines + 1] = "<li>" .. code("sandbox: " .. l) .. "</li>" end
	end
	if #lines == 0 then return "" end
	return section("report", "Report", '<ul class="lines">' .. concat(lines) .. "</ul>")
end

-- bytes as text in a block: each line through M.text, the newlines kept
local function block(bytes)
	local lines = {}
	for l in (bytes .. "\n"):gmatch("([^\n]*)\n") do lines[#lines + 1] = text(l) end
	if bytes:sub(-1) == "\n" then lines[#lines] = nil end
	return '<pre class="out">' .. concat(lines, "\n") .. "</pre>"
end

-- the first bytes of s in hex, 16 a row, with their offsets
local function hex_block(bytes, max)
	local rows = {}
	for i = 1, math.min(#bytes, max), 16 do
		local row = bytes:sub(i, math.min(i + 15, max))
		rows[#rows + 1] = ("%08x  %s"):format(i - 1, (row:gsub(".", function(c)
			return ("%02x "):format(c:byte())
		end)))
	end
	return '<pre class="out">' .. concat(rows, "\n") .. "</pre>"
end

-- an escaped text of the result (sbx.report.escape) back to its bytes;
-- "" when it is not one
local function bytes_of(v)
	local ok, b = pcall(report.unescape, v)
	return ok and b or ""
end

-- HEX_SHOWN bytes of a body are shown in hex beside its text
local HEX_SHOWN = 512

-- the program's own stdout and stderr, as far as the result holds them
local function output_section(res)
	local body = {}
	for _, s in ipairs { "stdout", "stderr" } do
		local o = type(res.output) == "table" and res.output[s]
		if type(o) == "table" then
			local shown, bytes = math.tointeger(tonumber(o.shown)) or 0, math.tointeger(tonumber(o.bytes)) or 0
			local cut = bytes > shown and (", the first %s shown"):format(report.format_size(shown)) or ""
			body[#body + 1] = ("<h3>%s</h3><p>%s%s</p>%s"):format(s, text(report.format_size(bytes)), text(cut),
				block(bytes_of(o.text)))
		end
	end
	return section("output", "Output", concat(body))
end

-- a node of the process tree and its children, nested
local function tree_items(nodes, depth)
	if depth > 64 or #list_of(nodes) == 0 then return "" end
	local out = { "<ul>" }
	for _, n in ipairs(records(nodes)) do
		-- a forked child named by its parent's image, one that ran on
		-- after the command exited (sbx.behaviour, as the text says them)
		local marks = (n.fork == true and " (fork)" or "") .. (n.outlived == true and " (ran on)" or "")
		out[#out + 1] = ("<li>%s%s <span class=\"pid\">pid %s</span>%s</li>"):format(
			code(n.name or "?"), text(marks), text(n.process_id or "?"), tree_items(n.children, depth + 1))
	end
	out[#out + 1] = "</ul>"
	return concat(out)
end

-- the scripts the interpreters ran (the result's `scripts`): each with its
-- first SCRIPT_LINES lines, each line cut at SCRIPT_COLS bytes, escaped
local SCRIPT_LINES, SCRIPT_COLS, SCRIPTS_SHOWN = 20, 200, 64
local function scripts_items(res)
	local out = {}
	for i, x in ipairs(records(res.scripts)) do
		if i > SCRIPTS_SHOWN then
			out[#out + 1] = "<li>" .. text(("(%d more)"):format(#records(res.scripts) - SCRIPTS_SHOWN)) .. "</li>"
			break
		end
		local lines, n = {}, 0
		for l in tostring(x.text or ""):gmatch("[^\n]+") do
			n = n + 1
			if n > SCRIPT_LINES then break end
			lines[#lines + 1] = "<li>" .. code(#l > SCRIPT_COLS and l:sub(1, SCRIPT_COLS) .. "..." or l) .. "</li>"
		end
		out[#out + 1] = ("<li>%s %s <span class=\"pid\">pid %s</span><ul>%s</ul></li>"):format(code(x.source or "?"),
			text(("(%s, %s B, sha256:%s%s)"):format(tostring(x.language), num(x.size), tostring(x.sha256 or "-"),
				x.cut == true and ", cut" or "")), num(x.pid), concat(lines))
	end
	return concat(out)
end

local function tree_section(b, res)
	local body = tree_items(b.processes_tree, 0)
	local cmds = {}
	for _, c in ipairs(list_of(b.command_executions)) do cmds[#cmds + 1] = "<li>" .. code(c) .. "</li>" end
	if #cmds > 0 then body = body .. "<h3>Commands</h3><ul>" .. concat(cmds) .. "</ul>" end
	local scripts = scripts_items(res or {})
	if scripts ~= "" then body = body .. "<h3>Scripts</h3><ul>" .. scripts .. "</ul>" end
	return section("processes", "Processes", body)
end

-- every event with a time, in the order of the events
local function timeline_section(res)
	local rows = {}
	for _, e in ipairs(events_of(res)) do
		if e.time_ms ~= nil then
			rows[#rows + 1] = { num(e.time_ms), num(e.pid), num(e.ppid), text(e.kind or ""),
				code(event_words(e)), text(e.answer or "") }
		end
	end
	if #rows == 0 then return "" end
	return section("timeline", "Timeline",
		table_of({ "ms", "pid", "ppid", "event", "what", "answer" }, rows))
end

-- an HTTP request's headers: a list of lines or of {name, value}, or a map
local function headers_of(h)
	local lines = {}
	for _, x in ipairs(list_of(h)) do
		if type(x) == "table" then x = tostring(x.name or x[1]) .. ": " .. tostring(x.value or x[2]) end
		lines[#lines + 1] = code(x)
	end
	if #lines == 0 and type(h) == "table" then
		local names = {}
		for k in pairs(h) do names[#names + 1] = tostring(k) end
		sort(names)
		for _, k in ipairs(names) do lines[#lines + 1] = code(k .. ": " .. tostring(h[k])) end
	end
	return concat(lines, "<br>")
end

local function http_rows(b)
	local rows = {}
	for _, c in ipairs(records(b.http_conversations)) do
		local body = bytes_of(c.body)
		rows[#rows + 1] = { text(c.method or ""), code(c.url), code(c.host), num(c.port),
			headers_of(c.headers), code(c.body_sha256), size(c.body_size),
			#body > 0 and block(body) .. hex_block(body, HEX_SHOWN) or "" }
	end
	return rows
end

local function network_section(res, b)
	local body, traffic, dns = {}, {}, {}
	for _, t in ipairs(records(b.ip_traffic)) do
		traffic[#traffic + 1] = { text(t.transport_layer_protocol or ""), code(t.destination_ip),
			num(t.destination_port), size(t.bytes), text(t.answer or "") }
	end
	if #traffic > 0 then
		body[#body + 1] = "<h3>IP traffic</h3>" .. table_of({ "protocol", "address", "port", "bytes", "answer" }, traffic)
	end
	for _, d in ipairs(records(b.dns_lookups)) do
		local ips = {}
		for _, ip in ipairs(list_of(d.resolved_ips)) do ips[#ips + 1] = code(ip) end
		dns[#dns + 1] = { code(d.hostname), concat(ips, " ") }
	end
	if #dns > 0 then body[#body + 1] = "<h3>DNS</h3>" .. table_of({ "name", "answers" }, dns) end
	local http = http_rows(b)
	if #http > 0 then
		body[#body + 1] = "<h3>HTTP</h3>" .. table_of({ "method", "URL", "host", "port", "headers",
			"body sha256", "body size", "body" }, http)
	end
	local pcap = type(res.pcap) == "table" and (res.pcap.path or res.pcap.file) or res.pcap
	if b.has_pcap and pcap then body[#body + 1] = "<p>capture: " .. code(pcap) .. "</p>" end
	return section("network", "Network", concat(body))
end

-- the dropped files (the behaviour's, else the result's), with a type
-- and a MIME type when either record has them (the result's by path)
local function files_section(res, b)
	local files = #records(b.files_dropped) > 0 and records(b.files_dropped) or records(res.files_dropped)
	local typed = {}
	for _, f in ipairs(records(res.files_dropped)) do
		if f.path ~= nil then typed[f.path] = f end
	end
	local rows = {}
	for _, f in ipairs(files) do
		local t = typed[f.path] or {}
		rows[#rows + 1] = { code(f.path), text(f.mode or ""), size(f.size), code(f.sha256),
			text(f.type or t.type or ""), text(f.mime or t.mime or ""),
			f.executed_from_memory and "executed from memory" or "" }
	end
	if #rows == 0 then return "" end
	return section("files", "Dropped files",
		table_of({ "path", "mode", "size", "sha256", "type", "MIME", "" }, rows))
end

-- the calls the box refused (a filter's deny or stop, a refusal that
-- ended the run)
local function refused_section(res)
	local rows = {}
	for _, e in ipairs(events_of(res)) do
		local call = e.kind == "refused" and type(e.call) == "table" and e.call or e
		if e.kind == "refused" or (report.is_call(e) and (e.answer == "deny" or e.answer == "stop")) then
			rows[#rows + 1] = { num(call.pid), code(event_words(call)), text(call.answer or "stop"),
				text(call.errno or ""), num(call.count or 1) }
		end
	end
	if #rows == 0 then return "" end
	return section("refused", "Refused calls", table_of({ "pid", "call", "answer", "errno", "count" }, rows))
end

local MEASURED = { { "memory_peak", "memory peak", size }, { "tasks_peak", "tasks peak", num },
	{ "cpu", "cpu seconds", text }, { "samples", "samples", num }, { "proc_events", "process events", num } }

-- the limits as the report words them (`sbx.report.limit_lines`), then
-- what the run measured
local function limits_section(res)
	local lim, how, notes = {}, {}, {}
	for name, l in pairs(type(res.limits) == "table" and res.limits or {}) do
		if type(l) == "table" and limits.kinds[name] then
			lim[name], how[name], notes[name] = tonumber(l.value), l.enforcement, l.uncounted
		end
	end
	local items = {}
	if next(lim) then
		local ok, lines = pcall(report.limit_lines, lim, how, notes)
		for _, l in ipairs(ok and lines or {}) do
			if not l:find(" nil", 1, true) then items[#items + 1] = "<li>" .. text(l) .. "</li>" end
		end
	end
	local m, rows = type(res.measured) == "table" and res.measured or {}, {}
	for _, x in ipairs(MEASURED) do
		if m[x[1]] ~= nil then rows[#rows + 1] = { x[2], x[3](m[x[1]]) } end
	end
	if #items == 0 then
		-- a limit the report cannot word (a result without every limit)
		for _, name in ipairs(limits.names) do
			if lim[name] then items[#items + 1] = ("<li>%s %s (%s)</li>"):format(text(name), num(lim[name]), text(how[name] or "none")) end
		end
	end
	local body = #items > 0 and "<ul>" .. concat(items) .. "</ul>" or ""
	if #rows > 0 then body = body .. "<h3>Measured</h3>" .. table_of(nil, rows) end
	return section("limits", "Limits", body)
end

-- the claims of the isolation report (`sbx.report.isolation_lines`):
-- each protection as the result claims it, with the state the kernel's
-- view gave it (`sbx.report.verified_states`); nothing the result does
-- not claim
local function claim_rows(iso, ver)
	local rows, ns, vns = {}, list_of(iso.namespaces), list_of(ver.namespaces)
	local names = {}
	for n, on in pairs(ns) do
		if on then names[#names + 1] = n end
	end
	sort(names)
	for _, n in ipairs(names) do rows[#rows + 1] = { "namespace " .. text(n), "yes", text(vns[n] or "") } end
	if iso.private_root then
		rows[#rows + 1] = { "root", "private", text(ver.private_root or "") }
		rows[#rows + 1] = { "root read-only", "yes", text(ver.read_only_root or "") }
	elseif iso.private_root == false then
		rows[#rows + 1] = { "root", "the host's", "" }
	end
	if iso.no_new_privs then rows[#rows + 1] = { "no_new_privs", "yes", text(ver.no_new_privs or "") } end
	if iso.capabilities_dropped then
		rows[#rows + 1] = { "capabilities", "none", text(ver.capabilities_dropped or "") }
	elseif iso.capabilities_dropped == false then
		rows[#rows + 1] = { "capabilities", "none held, bounding set kept", "" }
	end
	rows[#rows + 1] = { "seccomp", iso.seccomp and "profile " .. text(iso.seccomp_profile or "?") or "none",
		iso.seccomp and text(ver.seccomp or "") or "" }
	rows[#rows + 1] = { "landlock", iso.landlock and "ABI " .. num(iso.landlock_abi) or "none",
		iso.landlock and text(ver.landlock or "") or "" }
	if iso.network ~= nil then rows[#rows + 1] = { "network", text(iso.network), "" } end
	if iso.host_root ~= nil then
		rows[#rows + 1] = { "host root", iso.host_root and "yes (the box runs as kernel uid 0)" or "no", "" }
	end
	return rows
end

local function isolation_section(res)
	if type(res.isolation) ~= "table" then return "" end
	local body = table_of({ "protection", "claimed", "state" },
		claim_rows(res.isolation, type(res.verified) == "table" and res.verified or {}))
	if res.digest then body = body .. "<p>digest: " .. code(res.digest) .. "</p>" end
	return section("isolation", "Isolation", body)
end

local STYLE = [[
body{font:14px/1.4 sans-serif;margin:1em 2em;color:#111;background:#fff}
h1{font-size:1.4em}h2{font-size:1.2em;border-bottom:1px solid #ccc}h3{font-size:1em}
table{border-collapse:collapse;margin:.5em 0}th,td{border:1px solid #ccc;padding:2px 6px;
text-align:left;vertical-align:top}th{background:#eee}code{font-family:monospace;
white-space:pre-wrap;word-break:break-all}.esc{background:#fd8;color:#600;font-family:monospace}
pre.out{font-family:monospace;white-space:pre-wrap;word-break:break-all;background:#f6f6f6;
margin:.3em 0;max-height:40em;overflow:auto}
.pid{color:#666;font-size:.9em}.verdict b{font-size:1.2em}ul.lines{list-style:none;padding:0}
]]

-- the page around a body: no script, nothing loaded from anywhere
local function document(body)
	return concat {
		"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
		'<meta http-equiv="Content-Security-Policy" content="', M.CSP, '">\n',
		'<meta name="referrer" content="no-referrer">\n',
		"<title>", M.TITLE, "</title>\n<style>\n", STYLE, "</style>\n</head>\n<body>\n",
		body, "</body>\n</html>\n" }
end

--- The page of one run.
-- @tparam table res the structured result (`sbx.pipeline.result`), with
--  `behaviour` when the run has one and `verdict` when it was judged
-- @tparam[opt] table meta `program` (the path run), `args` (its
--  arguments), `sha256` (the program file's), `verdict` (a judgement,
--  `sbx.verdict.judge`, when `res` has none)
-- @treturn string a whole HTML document
function M.page(res, meta)
	argcheck(res, "table", 1, "page")
	if meta ~= nil and type(meta) ~= "table" then
		error(("bad argument #2 to 'page' (table or nil expected, got %s)"):format(type(meta)), 2)
	end
	meta = meta or {}
	local b = type(res.behaviour) == "table" and res.behaviour or {}
	return document(concat {
		"<h1>", M.TITLE, "</h1>\n",
		verdict_section(meta.verdict or res.verdict),
		run_section(res, meta),
		sample_section(res, meta),
		output_section(res),
		report_section(res),
		tree_section(b, res),
		timeline_section(res),
		network_section(res, b),
		files_section(res, b),
		refused_section(res),
		limits_section(res),
		isolation_section(res),
	})
end

--- The name of a batch record's page: the SHA-256 of its program's
-- sha256, options and path (never the sample's own name), `.html`.
-- @tparam table rec a batch record (`sbx.batch`)
-- @treturn string
function M.file_name(rec)
	argcheck(rec, "table", 1, "file_name")
	return core.sha256(("%s\0%s\0%s"):format(tostring(rec.sha256), tostring(rec.options),
		tostring(rec.program))) .. ".html"
end

--- The index of a batch's pages: one row per record, its verdict,
-- outcome and program, and a link to its page (`M.file_name`).
-- @tparam table recs list of batch records (`sbx.batch`)
-- @treturn string a whole HTML document
function M.index(recs)
	argcheck(recs, "table", 1, "index")
	local rows = {}
	for _, r in ipairs(records(recs)) do
		-- the link is the page's name: hex digits only, never a box's string
		local link = ('<a href="%s">report</a>'):format(M.file_name(r))
		rows[#rows + 1] = { text(r.verdict or "?"), num(r.severity), text(r.outcome or ""), code(r.program), link }
	end
	return document("<h1>" .. M.TITLE .. ": batch</h1>\n" ..
		table_of({ "verdict", "severity", "outcome", "program", "" }, rows) .. "\n")
end

--- Opens a batch's page directory, made (0700) when absent; no symlink
-- on its path is followed (`sbx.core.open_dir`).  Every page is then
-- written through that descriptor.
-- @tparam string path
-- @return an `sbx.dir`, or nil, msg, errno
function M.open_dir(path)
	argcheck(path, "string", 1, "open_dir")
	if not core.lstat(path) then
		local ok, msg, err = core.mkdir(path, 448)
		if not ok and err ~= core.errno.EEXIST then return nil, msg, err end
	end
	return core.open_dir(path)
end

--- Writes a batch record's page into dir: a new file (`excl`: anything
-- already at its name is refused and left as it is, a regular file too).
-- @tparam userdata dir from `M.open_dir`
-- @tparam table rec a batch record (`sbx.batch`)
-- @return the page's name, or nil, msg, errno
function M.write_record(dir, rec)
	local name = M.file_name(rec)
	local page = M.page(rec.run or {}, { program = rec.program, sha256 = rec.sha256,
		md5 = rec.md5, sha1 = rec.sha1, ssdeep = rec.ssdeep, tlsh = rec.tlsh,
		verdict = { verdict = rec.verdict, severity = rec.severity, reasons = rec.reasons } })
	local ok, msg, err = dir:write(name, page, "excl")
	if not ok then return nil, msg, err end
	return name
end

return M
