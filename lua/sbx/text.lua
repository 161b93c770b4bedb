-- SPDX-License-Identifier: MIT
--- Text for a report line: escaping what came from outside, the terminal's reset,
-- sizes, durations and counts.
-- @module sbx.text

local argcheck = require("sbx._arg").check
local M = {}

-- Bytes that never reach a line as they are, and what is written instead.
local escapes = { ["\\"] = "\\\\", ["\n"] = "\\n", ["\r"] = "\\r", ["\t"] = "\\t" }
for b = 0, 255 do
	local c = string.char(b)
	if escapes[c] == nil and (b < 0x20 or b > 0x7e) then
		escapes[c] = ("\\x%02x"):format(b)
	end
end

--- Makes text from outside safe to put in a report line or a message.
-- A program's name, a path, an operator's argument, a message that holds
-- one: any of them may hold a newline (which would start a line of its
-- own, such as a forged `sandbox: exit 0`) or a terminal's escape
-- sequence.  Printable ASCII passes unchanged; a backslash is doubled;
-- newline, carriage return and tab are written `\n`, `\r`, `\t`; every
-- other byte (the other controls, DEL, and every byte above 0x7e) is
-- written `\xHH`.  The result is one line of printable ASCII, and the
-- original bytes can be read back from it.  Every line and message that
-- sbxlua's scripts write passes through here (see docs/standard-box.md).
-- @param s a string (anything else through `tostring`)
-- @treturn string
function M.escape(s)
	return (tostring(s):gsub("[\0-\31\\\127-\255]", escapes))
end

local UNESCAPES = { ["\\"] = "\\", n = "\n", r = "\r", t = "\t" }

--- The bytes M.escape was given, read back from its result.
-- @tparam string s text as M.escape writes it
-- @treturn string
function M.unescape(s)
	argcheck(s, "string", 1, "unescape")
	return (s:gsub("\\(.)(%x?%x?)", function(c, hex)
		if c == "x" then return #hex == 2 and string.char(tonumber(hex, 16)) or nil end
		return UNESCAPES[c] and UNESCAPES[c] .. hex or nil
	end))
end

--- What sbxlua writes to a terminal before anything of its own (the report,
-- the behaviour, the verdict), whatever the program left there: a program
-- shares the terminal and can leave it in a state that hides or moves what
-- comes next (concealed or same-colour text, line-drawing character sets, a
-- one-line scroll region, the alternate screen, a hidden cursor, insert
-- mode, no autowrap, a string or sequence left open that swallows the next
-- bytes).  In order: CAN ends a control sequence left open and ST (ESC \) a
-- string (OSC, DCS, APC, PM, SOS; the terminal filter, ttyfilter.c, never
-- lets one through, but --tty-raw does); the normal screen (mode 47: no
-- cursor restore, unlike 1049's, which would move to a position saved long
-- ago); the scroll region the whole screen, inside a cursor save and restore
-- (DECSTBM moves the cursor home, and the report goes where the program's
-- output ended); then every attribute off and the primary font (SGR 10,
-- which on the Linux console also undoes SGR 11 and 12: control characters
-- shown, bytes with their high bit set, the report's letters drawn as other
-- glyphs), G0 and G1 ASCII with G0 shifted in (G2 and G3 are not designated:
-- the Linux console has neither, and prints the final byte; the filter drops
-- the shifts to them), insert mode off, autowrap on, the cursor shown, left
-- and right margins off, synchronized output off (mode 2026: a terminal that
-- has it draws nothing meanwhile), the line single-width, and the screen
-- below the cursor erased (what a program drew there, a fake report below
-- the real one, goes).  Origin mode is left as it is: switching it moves the
-- cursor home, and with the whole screen as the region it changes nothing.
-- No string, no query, no mode a terminal answers: it is the same bytes
-- whatever the program did.
M.TTY_RESET = table.concat {
	"\24\27\\", -- CAN, ST
	"\27[?47l", -- the normal screen
	"\0277\27[r\0278", -- DECSC, DECSTBM (the whole screen), DECRC
	"\27[0m\27[10m", -- SGR: every attribute off; the primary font (the Linux console: its mapping back)
	"\15\27(B\27)B", -- SI; G0, G1 ASCII
	"\27[4l\27[?7h\27[?25h\27[?69l", -- IRM off, DECAWM on, DECTCEM on, DECLRMM off
	"\27[?2026l", -- synchronized output off (a terminal that has it draws nothing while it is on)
	"\27#5\27[J", -- DECSWL, ED below
}

--- A name queried of the sink's resolver, escaped; a space too (no name
-- has one), so that a name cannot pass for the type and answer that follow
-- it on its line; the root is ".".
function M.dns_name(n)
	if n == "" then return "." end -- the root
	return (M.escape(n):gsub(" ", "\\x20"))
end

--- A count with a comma between thousands: `2,744`.
-- @tparam integer n (or a float of an integer's value, as a JSON decoder
--  gives)
-- @treturn string
function M.thousands(n)
	n = math.tointeger(n)
	if not n then error("bad argument #1 to 'thousands' (integer expected)", 2) end
	local s = tostring(n < 0 and -n or n):reverse():gsub("(%d%d%d)", "%1,"):reverse():gsub("^,", "")
	return (n < 0 and "-" or "") .. s
end

--- A size in the largest binary unit that states it exactly:
-- `512 MiB`, `1536 MiB`, `1 GiB`, `1000 B`.
-- @tparam integer n bytes
-- @treturn string
function M.format_size(n)
	local units = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" }
	local i = 1
	n = math.floor(n)
	while n ~= 0 and n % 1024 == 0 and i < #units do
		n = n // 1024
		i = i + 1
	end
	return ("%d %s"):format(n, units[i])
end

--- A duration in seconds: `60 s`, `1.5 s`.
-- @tparam number s seconds
-- @treturn string
function M.format_duration(s)
	if math.type(s) == "integer" or s == math.floor(s) then
		return ("%d s"):format(math.floor(s))
	end
	return ("%g s"):format(s)
end

--- Seconds of skipped sleep as the report and the behaviour summary say
-- them: whole from 10 s, else to a tenth (an absolute sleep's length is
-- what remained of it when the supervisor read it: a few ms short).
-- @tparam number s
-- @treturn number
function M.sleep_seconds(s)
	if s >= 10 then return math.floor(s + 0.5) end
	return math.floor(s * 10 + 0.5) / 10
end

return M
