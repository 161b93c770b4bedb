-- SPDX-License-Identifier: MIT
-- The box's terminal as people use it: what reaches the caller's terminal,
-- the window size, /dev/tty and /dev/console, and the box's descriptors
-- reopened by name; through a real pseudo-terminal (tests/on_pty.py) and
-- through plain pipes.
-- scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"

-- Runs `sbxlua run.lua ARGS` on a fresh terminal (tests/on_pty.py);
-- returns the bytes the terminal received, as they came.  opts.size sets
-- the window ("ROWSxCOLS"), opts.steps are (mark, keys) pairs, opts.tail a
-- shell command line run after sbxlua on the same terminal.
local function on_tty(args, opts)
	opts = opts or {}
	local q = {}
	for i, a in ipairs(args) do q[i] = S.q(a) end
	local cmd = S.bin .. " run.lua " .. table.concat(q, " ") .. (opts.tail or "")
	local steps = {}
	for i, a in ipairs(opts.steps or { "NEVER SHOWN", "" }) do steps[i] = S.q(a) end
	return (S.sh("/usr/bin/python3 tests/on_pty.py --raw " .. (opts.size and "--size " .. opts.size .. " " or "")
		.. S.q(cmd) .. " " .. table.concat(steps, " ")))
end

local RESET = require("sbx.report").TTY_RESET

-- what the program wrote, before the report (and before the reset sbxlua
-- writes ahead of it on a terminal)
local function program_part(out)
	local p = out:match("^(.-)sandbox: ") or out
	local at = p:find(RESET, 1, true)
	return at and p:sub(1, at - 1) .. p:sub(at + #RESET) or p
end

-- sh's printf: every hostile thing a program can write to a terminal, with
-- a letter between each, then what draws
local HOSTILE = table.concat {
	"A\\033]52;c;SGVsbG8=\\007", -- OSC 52: write the caller's clipboard
	"B\\033]52;c;?\\033\\\\", -- OSC 52: read it (answered on stdin)
	"C\\033[21t", -- report the window title (answered on stdin)
	"D\\033]0;spoofed\\033\\\\", -- set the title
	"E\\033P$qm\\033\\\\", -- DCS DECRQSS (answered on stdin)
	"F\\033[6n\\033[c\\033[>c\\005", -- CPR, DA1, DA2, ENQ (all answered)
	"G\\033_apc\\033\\\\\\033^pm\\033\\\\\\033Xsos\\033\\\\", -- APC, PM, SOS
	"H\\302\\23552;c;eA==\\302\\234", -- OSC 52 as UTF-8 encoded C1 controls
	"I\\033[?2l\\033Z", -- VT52 mode, DECID
	-- single shifts and locking shifts to G2 and G3 (designated as line
	-- drawing, which the reset before the report does not undo: not every
	-- terminal has G2 and G3 to designate)
	"J\\033*0\\033+0\\033N\\033O\\033n\\033o\\033|\\033}\\033~",
}
local DRAWS = "\\033[31mred\\033[0m\\033[2;5H\\033[K\\303\\251 \\342\\234\\223\\033[?25l\\033[?25h"
local DRAWN = "\27[31mred\27[0m\27[2;5H\27[K\195\169 \226\156\147\27[?25l\27[?25h"

-- the same bytes, as the terminal receives them raw (LF as CR LF)
local function unescaped(fmt)
	local s = fmt:gsub("\\\\", "\0"):gsub("\\(%d%d%d)", function(o) return string.char(tonumber(o, 8)) end)
	return (s:gsub("\0", "\\"))
end

-- ---- the report after what a program left on the terminal ----

-- What a person sees of a tmux pane's capture with its attributes
-- (capture-pane -e writes each change as SGR, carried across lines):
-- text concealed (SGR 8), or drawn in the same colour as its background,
-- is seen as spaces.
local function seen(capture)
	local out, hidden, fg, bg = {}, false, nil, nil
	local function sgr(params)
		local p = {}
		for v in (params .. ";"):gmatch("([^;:]*)[;:]") do p[#p + 1] = tonumber(v) or 0 end
		local i = 1
		while i <= #p do
			local v = p[i]
			if v == 0 then
				hidden, fg, bg = false, nil, nil
			elseif v == 8 then
				hidden = true
			elseif v == 28 then
				hidden = false
			elseif v >= 30 and v <= 37 or v >= 90 and v <= 97 then
				fg = v % 10 + (v >= 90 and 8 or 0)
			elseif v >= 40 and v <= 47 or v >= 100 and v <= 107 then
				bg = v % 10 + (v >= 100 and 8 or 0)
			elseif v == 39 then
				fg = nil
			elseif v == 49 then
				bg = nil
			elseif (v == 38 or v == 48) and p[i + 1] == 5 then
				if v == 38 then fg = p[i + 2] else bg = p[i + 2] end
				i = i + 2
			elseif (v == 38 or v == 48) and p[i + 1] == 2 then
				local rgb = ("rgb%d,%d,%d"):format(p[i + 2] or 0, p[i + 3] or 0, p[i + 4] or 0)
				if v == 38 then fg = rgb else bg = rgb end
				i = i + 4
			end
			i = i + 1
		end
	end
	local i = 1
	while i <= #capture do
		local params, final, j = capture:match("^\27%[([%d;:]*)(%a)()", i)
		if params then
			if final == "m" then sgr(params) end
			i = j
		else
			local c = capture:match("^[%z\1-\127\194-\244][\128-\191]*", i) or capture:sub(i, i)
			out[#out + 1] = (c ~= "\n" and (hidden or (fg ~= nil and fg == bg))) and " " or c
			i = i + #c
		end
	end
	return table.concat(out)
end

-- Runs `sbxlua run.lua ARGS` in a tmux pane of 160x100 (a terminal
-- emulator: what it shows is what a person sees); returns what is seen of
-- the pane and its history (`seen`) and the pane's state after the run
-- ({ alternate_on =, cursor_flag =, ... } from tmux's formats).
local TMUX_STATE = { "alternate_on", "cursor_flag", "insert_flag", "wrap_flag", "scroll_region_upper",
	"scroll_region_lower", "pane_height" }
local function on_tmux(args)
	local d, rm = S.tmpdir()
	local tmux = "env SHELL=/bin/sh tmux -f /dev/null -S " .. S.q(d .. "/sock") .. " "
	local q = {}
	for i, a in ipairs(args) do q[i] = S.q(a) end
	-- the pane signals the channel once sbxlua has exited, then holds
	local cmd = S.bin .. " run.lua " .. table.concat(q, " ") .. "; tmux wait-for -S ran; exec sleep 600"
	local _, code = S.sh(tmux .. "new-session -d -x 160 -y 100 -c " .. S.q(S.sh("pwd"):gsub("\n$", "")) .. " "
		.. S.q(cmd))
	assert(code == 0, "tmux new-session")
	S.sh("timeout 120 " .. tmux .. "wait-for ran")
	local capture = S.sh(tmux .. "capture-pane -p -e -S - -E -")
	local fmt = {}
	for i, k in ipairs(TMUX_STATE) do fmt[i] = "#{" .. k .. "}" end
	local values = S.sh(tmux .. "display-message -p " .. S.q(table.concat(fmt, " ")))
	S.sh(tmux .. "kill-server")
	rm()
	local state, i = {}, 1
	for v in values:gmatch("%S+") do
		state[TMUX_STATE[i]] = tonumber(v)
		i = i + 1
	end
	return seen(capture), state
end

-- The fake report a program writes before it hides the real one.
local FAKE = "sandbox: exit 0\\nverdict: clean (severity 0)\\n"

-- What a program can print to hide or move what follows on a terminal,
-- each after the fake report: as printf formats.
local HIDING = {
	{ "concealed text", "\\033[8m" },
	{ "black on black", "\\033[30;40m" },
	{ "same colour, 256-colour form", "\\033[38;5;16;48;5;16m" },
	{ "the cursor hidden", "\\033[?25l" },
	{ "line drawing in G0", "\\033(0" },
	{ "line drawing in G1, shifted out", "\\033)0\\016" },
	{ "a two-line scroll region at the top", "\\033[1;2r" },
	{ "origin mode in a two-line region", "\\033[1;2r\\033[?6h" },
	{ "the alternate screen (1049)", "\\033[?1049h" },
	{ "the alternate screen (47)", "\\033[?47h" },
	{ "insert mode", "\\033[4h" },
	{ "no autowrap", "\\033[?7l" },
	{ "synchronized output held", "\\033[?2026h" },
	{ "the fake report at the bottom, the cursor at the top",
		"\\033[95;1H" .. FAKE .. "\\033[1;1H" },
	{ "an unterminated OSC", "\\033]0;title" },
	{ "an open DCS", "\\033Pq#0;2;0;0;0" },
	{ "an open control sequence", "\\033[1;" },
	{ "all of them", "\\033[8m\\033[30;40m\\033[?25l\\033(0\\033)0\\016\\033[4h\\033[?7l\\033[?1049h"
		.. "\\033[1;2r\\033[?6h\\033]0;x" },
}

describe("the box's terminal [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	describe("output to the caller's terminal", function()
		it("reaches it without strings, queries or mode switches; what draws passes untouched", function()
			local out = on_tty { "/bin/sh", "-c", "printf '" .. HOSTILE .. DRAWS .. "\\n'" }
			assert.are.equal("ABCDEFGHIJ\27*0\27+0" .. DRAWN .. "\r\n", program_part(out))
			assert.matches("sandbox: exit 0\r\n", out, 1, true)
		end)

		it("ends with the modes the program left set reset: mouse, focus, paste, screen, cursor", function()
			local out = on_tty { "/bin/sh", "-c",
				"printf 'M\\033[?1049h\\033[?1000;1006h\\033[?1004h\\033[?2004h\\033[?25l\\033[?1006l\\n'" }
			-- passed as written, then each reset once the output ends,
			-- before the report
			assert.are.equal("M\27[?1049h\27[?1000;1006h\27[?1004h\27[?2004h\27[?25l\27[?1006l\r\n"
				.. "\27[?2004l\27[?1049l\27[?1004l\27[?1000l\27[?25h", program_part(out))
			-- nothing left to reset: nothing added
			out = on_tty { "/bin/sh", "-c", "printf 'N\\033[?1000h\\033[?1000l\\n'" }
			assert.are.equal("N\27[?1000h\27[?1000l\r\n", program_part(out))
		end)

		it("passes unchanged with --tty-raw", function()
			local out = on_tty { "--tty-raw", "/bin/sh", "-c", "printf '" .. HOSTILE .. DRAWS .. "\\n'" }
			assert.are.equal(unescaped(HOSTILE) .. DRAWN .. "\r\n", program_part(out))
		end)

		it("is filtered on stderr too, and never when it goes to a pipe or a file", function()
			-- without a pty (--stdin none): stdout to a file, stderr to
			-- the terminal
			local d, rm = S.tmpdir()
			local fmt = "X\\033]52;c;SGVsbG8=\\007Y\\033[6nZ"
			local out = on_tty({ "--stdin", "none", "/bin/sh", "-c",
				"printf '" .. fmt .. "'; printf '" .. fmt .. "\\n' >&2" }, { tail = " >" .. d .. "/out" })
			local file = S.read(d .. "/out")
			rm()
			assert.are.equal(unescaped(fmt), file)
			assert.are.equal("XYZ\r\n", program_part(out))
			-- a pipe, both streams
			local o, e, code = S.runlua("/bin/sh", "-c", "printf '" .. fmt .. "'; printf '" .. fmt .. "\\n' >&2")
			assert.are.equal(0, code)
			assert.are.equal(unescaped(fmt), o)
			assert.are.equal(unescaped(fmt) .. "\nsandbox: exit 0\n", e)
		end)

		it("gives the same bytes however the output is cut, and nothing a second pass would drop", function()
			-- the filter alone (tests/progs/ttyfilter.c): cut at every
			-- point and in pieces of 1 to 64 bytes; the input is every
			-- hostile sequence above, what draws, and 4000 bytes drawn
			-- (fixed seed) from the bytes that matter to the parser
			local alphabet = { "\27", "[", "]", "P", "X", "^", "_", "\\", "\7", "\24", "\26", "\5", "\194",
				"\155", "\157", "\156", "\144", "?", ">", ";", "0", "2", "6", "m", "n", "c", "t", "q", " ",
				"$", "\"", "#", "(", "a", "\195", "\169", "\226", "\127" }
			-- a generator of this test's own (a linear congruential one,
			-- seed 42): reseeding the global one with a constant would make
			-- every later random tag or id of this suite the same as a
			-- concurrent suite's (two suites side by side then took one
			-- host id, and each saw the other's process holding it)
			local r, x = {}, 42
			for i = 1, 4000 do
				x = (x * 1103515245 + 12345) % 2147483648
				r[i] = alphabet[x % #alphabet + 1]
			end
			local input = unescaped(HOSTILE) .. unescaped(DRAWS) .. table.concat(r)
			local f = os.tmpname()
			local h = assert(io.open(f, "wb"))
			h:write(input)
			h:close()
			local out = S.sh("build/tests/ttyfilter --check < " .. f)
			local whole = S.sh("build/tests/ttyfilter < " .. f)
			os.remove(f)
			assert.are.equal("same\n", out)
			-- no string opener, no query survives
			assert.is_nil(whole:find("\27[%]P_%^X]"))
			assert.is_nil(whole:find("\194[\128-\159]"))
			assert.is_nil(whole:find("\27%[[%d;]*[cn]"))
		end)

		it("filters a sequence split across writes, each written after the terminal showed the one before", function()
			-- the program writes a part, waits for a typed line (typed
			-- once the terminal has shown the part's mark), writes the next
			local prog = table.concat({
				"printf 'S1\\033]52;c;SGVs'", "read x",
				"printf 'bG8=\\007S2\\033[3'", "read x",
				"printf '2mGREEN\\033[0mS3\\302'", "read x",
				"printf '\\2350;spoofed\\007S4\\033'", "read x",
				"printf 'P$qm\\033\\\\S5\\n'",
			}, "; ")
			local out = on_tty({ "--env", "PS1=", "/bin/sh", "-c", "stty -echo; " .. prog },
				{ steps = { "S1", "\r", "S2", "\r", "S3", "\r", "S4", "\r" } })
			assert.are.equal("S1S2\27[32mGREEN\27[0mS3S4S5\r\n", program_part(out))
		end)
	end)

	describe("the report after what the program left on the terminal", function()
		-- sh: the fake report on stderr, then the hiding sequence, then
		-- the real thing the verdict names
		local function hostile(seq)
			return "printf '" .. FAKE .. seq .. "' >&2; cat /etc/shadow >/dev/null; exit 3"
		end

		-- the last verdict line a person sees (a line of its own: a
		-- finding that quotes the program's fake one is escaped onto its
		-- own line), and the pane's state
		local function check(name, seen_text, state)
			local last
			for line in seen_text:gmatch("[^\n]+") do
				if line:find("^verdict: ") then last = line end
			end
			assert.are.equal("verdict: malicious (severity 8)", last and last:gsub("%s+$", ""), name)
			assert.truthy(seen_text:find("\nsandbox: exit 3 *\n"), name)
			assert.truthy(seen_text:find("\nfinding: shadow [T1003.008]: ", 1, true), name)
			assert.are.same({ alternate_on = 0, cursor_flag = 1, insert_flag = 0, wrap_flag = 1,
				scroll_region_upper = 0, scroll_region_lower = state.pane_height - 1,
				pane_height = state.pane_height }, state, name)
		end

		for _, h in ipairs(HIDING) do
			it("shows the real verdict after " .. h[1] .. " (tmux)", function()
				check(h[1], on_tmux { "--explore", "/bin/sh", "-c", hostile(h[2]) })
			end)
		end

		-- the strings, and the modes the filter would reset at the end
		for _, h in ipairs { HIDING[#HIDING - 3], HIDING[#HIDING - 2], HIDING[#HIDING - 1], HIDING[#HIDING],
			HIDING[4], HIDING[9], HIDING[10] } do
			it("shows the real verdict after " .. h[1] .. " passed raw (--tty-raw, tmux)", function()
				check(h[1], on_tmux { "--tty-raw", "--explore", "/bin/sh", "-c", hostile(h[2]) })
			end)
		end

		it("begins with the reset after the program's last byte, the verdict after it", function()
			for _, h in ipairs(HIDING) do
				local out = on_tty { "--explore", "/bin/sh", "-c", hostile(h[2]) }
				local at = out:find(RESET, 1, true)
				assert.truthy(at, h[1])
				-- the fake report is before it, the real one after it, and
				-- nothing but the report's own lines
				assert.is_nil(out:find("\nverdict: clean", at, true), h[1])
				local rest = out:sub(at + #RESET)
				assert.truthy(rest:find("^\r\n?sandbox: exit 3\r\n") or rest:find("^sandbox: exit 3\r\n"), h[1])
				assert.truthy(rest:find("\r\nverdict: malicious (severity 8)\r\n", 1, true), h[1])
				assert.is_nil(rest:find("\27", 1, true), h[1])
			end
		end)

		it("is written when stderr is a terminal, never into a pipe or a file", function()
			local _, err = S.runlua("/bin/sh", "-c", "printf 'x\\033[8m' >&2")
			assert.are.equal("x\27[8m\nsandbox: exit 0\n", err)
		end)

		it("--report-fd and --report hold everything sbxlua says: report, behaviour, verdict, findings", function()
			local d, rm = S.tmpdir()
			local cmd = S.bin .. " run.lua --explore --report-fd 3 --report " .. S.q(d .. "/r.txt") .. " /bin/sh -c "
				.. S.q(hostile("\\033[8m")) .. " 3>" .. S.q(d .. "/fd3") .. " 2>" .. S.q(d .. "/err") .. " </dev/null"
			local _, code = S.sh(cmd)
			local fd3, file, err = S.read(d .. "/fd3"), S.read(d .. "/r.txt"), S.read(d .. "/err")
			rm()
			assert.are.equal(3, code)
			assert.are.equal(fd3, file)
			-- stderr: the program's bytes, a line end, then exactly what
			-- the descriptor holds
			assert.are.equal(
				"sandbox: exit 0\nverdict: clean (severity 0)\n\27[8m\n" .. fd3, err)
			assert.truthy(fd3:find("^sandbox: exit 3\n"), fd3)
			assert.truthy(fd3:find("\nbehash +sha256:"), fd3)
			assert.truthy(fd3:find("\nverdict: malicious %(severity 8%)\n"), fd3)
			assert.truthy(fd3:find("\nfinding: shadow [T1003.008]: read the password hashes: read /etc/shadow\n",
				1, true), fd3)
			assert.is_nil(fd3:find("\nverdict: clean", 1, true))
		end)
	end)

	it("tty_raw in a spec is a boolean; captured output is never filtered", function()
		local sbx = require "sbx"
		assert.has_error(function() sbx.run(S.spec("true", { tty_raw = "yes" })) end,
			"bad argument #1 to 'box' (field 'tty_raw' must be a boolean (got string))")
		local r = S.run("printf 'T\\033]0;x\\007\\033[6n'")
		assert.are.equal("T\27]0;x\7\27[6n", r.stdout)
		r = S.run("printf 'T\\033]0;x\\007'", { tty_raw = true })
		assert.are.equal("T\27]0;x\7", r.stdout)
	end)

	describe("window size", function()
		it("is the caller's at the start and follows a resize", function()
			local out = on_tty({ "/bin/sh", "-c", "stty size; echo READY; read x; stty size; stty size </dev/tty" },
				{ size = "33x101", steps = { "READY", "@size=40x120:\r" } })
			assert.matches("^33 101\r\nREADY\r\n", out)
			assert.matches("\r\n40 120\r\n40 120\r\n" .. RESET .. "sandbox: exit 0\r\n", out, 1, true)
		end)
	end)

	describe("the terminal by name", function()
		it("opens as /dev/tty and /dev/console, and tty names it", function()
			local out = on_tty { "/bin/sh", "-c",
				"tty; echo viatty >/dev/tty && echo viaconsole >/dev/console && stty -F /dev/tty size "
				.. "&& stty -F /dev/console size" }
			assert.are.equal("/dev/console\r\nviatty\r\nviaconsole\r\n0 0\r\n0 0\r\n",
				program_part(out))
		end)

		it("/dev/tty without a terminal: no such device", function()
			local out, err, code = S.runlua("/bin/sh", "-c", "tty; : >/dev/tty")
			assert.are.equal("not a tty\n", out)
			assert.matches("/dev/tty: No such device or address\n", err, 1, true)
			assert.are.equal(2, code)
		end)
	end)

	describe("the box's descriptors reopened by name", function()
		local prog = "echo out >/dev/stdout && echo err >/dev/stderr && echo fd1 >/proc/self/fd/1 "
			.. "&& echo fd2 >/proc/self/fd/2 && echo stdin-$(head -c 0 /dev/stdin; echo ok)"

		it("with pipes", function()
			local out, err, code = S.runlua("/bin/sh", "-c", prog)
			assert.are.equal("out\nfd1\nstdin-ok\n", out)
			assert.are.equal("err\nfd2\nsandbox: exit 0\n", err)
			assert.are.equal(0, code)
		end)

		it("with a piped stdin", function()
			local out, code = S.sh("echo piped | " .. S.bin .. " run.lua /bin/sh -c 'cat /dev/stdin; "
				.. "echo x >/dev/stderr' 2>&1")
			assert.are.equal("piped\nx\nsandbox: exit 0\n", out)
			assert.are.equal(0, code)
		end)

		it("with the pty", function()
			local out = on_tty { "/bin/sh", "-c", prog }
			assert.are.equal("out\r\nerr\r\nfd1\r\nfd2\r\nstdin-ok\r\n", program_part(out))
		end)
	end)
end)
