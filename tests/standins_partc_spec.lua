-- SPDX-License-Identifier: MIT
-- The stand-ins of desktop capture and hiding tools (core/standin/partc.c,
-- docs/standins.md): import and xwd find no X display, arecord no capture
-- device, steghide reads its files, tries the one it would write and
-- refuses the picture's format.  Each attempt is an event of the box.
-- Real boxes only; scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"
local standin = require "sbx.standin"

local function opens_of(res, path)
	return S.select(res.events or {}, function(e) return e.kind == "open" and e.path == path end)
end

describe("stand-ins of capture and hiding tools [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	it("are played where the host lacks them", function()
		local h = assert(standin.host())
		local set = {}
		for _, n in ipairs(h.names) do set[n] = true end
		for _, n in ipairs { "import", "xwd", "arecord", "steghide" } do assert.is_true(set[n], n) end
	end)

	it("fail as on a server; steghide's write is tried where the walls refuse it", function()
		local prog = standin.box.program
		local function as(name, args) return ("bash -c 'exec -a %s %s %s'"):format(name, prog, args) end
		local out, err, _, res = S.json_run("--explore", "sh", "-c", table.concat({
			"export DISPLAY=:0",
			as("import", "-window root /tmp/a.png") .. "; echo i=$?",
			as("xwd", "-root -out /tmp/a.xwd") .. "; echo x=$?",
			as("arecord", "-vv -fdat /tmp/a.wav") .. "; echo a=$?",
			"printf x > /tmp/c.jpg; echo s > /tmp/s.txt",
			-- a hostile output path: outside what the box may write
			as("steghide", "embed -cf /tmp/c.jpg -ef /tmp/s.txt -sf /etc/c.jpg -p p") .. "; echo se=$?",
			as("steghide", "extract -sf /tmp/nosuch.jpg") .. "; echo sx=$?",
			as("steghide", "") .. "; echo s0=$?",
			as("steghide", "embed") .. "; echo s1=$?",
		}, "; "))
		assert.is_table(res, err)
		assert.are.equal("i=1\nx=1\na=1\nse=1\nsx=1\ns0=1\ns1=1\n", out, err)
		assert.matches("import: unable to open X server `:0'", err, 1, true)
		assert.matches("xwd:  unable to open display ':0'", err, 1, true)
		assert.matches("arecord: main:831: audio open error: No such file or directory", err, 1, true)
		assert.matches('steghide: the file format of the file "/tmp/c.jpg" is not supported.', err, 1, true)
		assert.matches('steghide: could not open the file "/tmp/nosuch.jpg".', err, 1, true)
		assert.matches('steghide: unknown command "".', err, 1, true)
		assert.matches("steghide: please specify a file.", err, 1, true)
		assert.is_true(#opens_of(res, "/dev/snd/pcmC0D0c") >= 1, err)
		local w = opens_of(res, "/etc/c.jpg")
		assert.is_true(#w >= 1, err)
		-- nothing of the host's /etc changed
		assert.is_nil(io.open("/etc/c.jpg"))
	end)
end)
