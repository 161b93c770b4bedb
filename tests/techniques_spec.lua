-- SPDX-License-Identifier: MIT
-- The ATT&CK corpus (tests/techniques): one small program per MITRE ATT&CK
-- technique, each performing it harmlessly in the analysis box, its file
-- named after the technique (`T1053.003_cron.sh`, a second way
-- `T1053.003_cron-2.sh`).  One batch run of the whole directory; each
-- record must name its file's technique among its ATT&CK ids, and a
-- discovery program (information only) must also stay clean.
--
-- Every program that changes anything first checks that HOME is /home/dana
-- (the box user's, `sbx.stdbox.user`) and stops otherwise: run by hand on a
-- host, it does nothing.
-- A tool this host lacks (crontab, at, xclip, auditctl...) is run by its
-- absolute path: a shell looks a bare name up itself and never asks the
-- kernel to run a name it cannot find, so the attempt would leave no exec
-- event; by its path the attempt is an exec, recorded with its argv.  The
-- same holds for names that resolve through /etc/alternatives (iptables),
-- whose links the box's synthetic /etc leaves dangling.
-- A C program (`T1057_proc-walk.c`) is run as the Makefile built it,
-- build/techniques/ and its name without .c; its HOME check is in_box of
-- tests/techniques/box_only.h.
-- scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"
local cjson = require "cjson"

local DIR = "tests/techniques"
local BUILT = "build/techniques"
-- a program that hangs is stopped well before the suite's patience ends
local OPTS = "-j 2 --wall 15 --progress never"

-- information only: the run must stay clean
local DISCOVERY = {}
for id in ([[T1082 T1033 T1087.001 T1069.001 T1016 T1049 T1057 T1083 T1518 T1007
	T1124 T1135 T1201 T1614.001 T1018 T1613 T1217 T1120 T1652 T1010 T1654 T1016.001
	T1580 T1619]]):gmatch("%S+") do
	DISCOVERY[id] = true
end

-- the technique id a file is named after ("T1053.003_cron-2.sh": T1053.003)
local function technique(name)
	return name:match("^(T%d%d%d%d[%.%d]*)_")
end

-- the corpus's programs, sorted (read when the file loads: one `it` each)
local function programs()
	local names = {}
	local ls = assert(io.popen("ls -1 " .. S.q(DIR)))
	for name in ls:lines() do
		if technique(name) then names[#names + 1] = name end
	end
	ls:close()
	table.sort(names)
	return names
end

-- every ATT&CK id a record names: its findings' `attack` and the behaviour
-- summary's `mitre_attack_techniques` (tables `{id = ...}` or strings)
local function attack_ids(rec)
	local ids = {}
	for _, f in ipairs(rec.reasons or {}) do
		for _, id in ipairs(type(f.attack) == "table" and f.attack or {}) do ids[id] = true end
	end
	local b = type(rec.run) == "table" and rec.run.behaviour
	for _, t in ipairs(type(b) == "table" and b.mitre_attack_techniques or {}) do
		local id = type(t) == "table" and t.id or t
		if type(id) == "string" then ids[id] = true end
	end
	return ids
end

-- the record's findings, for a failure's message
local function explain(rec)
	local lines = { ("outcome %s, exit %s, verdict %s"):format(tostring(rec.outcome),
		tostring(math.tointeger(rec.exit_code) or rec.exit_code), tostring(rec.verdict)) }
	for _, f in ipairs(rec.reasons or {}) do
		lines[#lines + 1] = ("finding: %s %s [%s]: %s"):format(tostring(f.rule), tostring(f.verdict),
			table.concat(type(f.attack) == "table" and f.attack or {}, ","), tostring(f.reason))
	end
	if #lines == 1 then lines[2] = "no finding" end
	return table.concat(lines, "\n")
end

local NAMES = programs()

-- what the batch runs for a program of the corpus, and the name its
-- record carries
local function built(name)
	local c = name:match("^(.+)%.c$")
	if c then return BUILT .. "/" .. c, c end
	return DIR .. "/" .. name, name
end

local PATHS = {}
for _, name in ipairs(NAMES) do PATHS[#PATHS + 1] = S.q((built(name))) end

describe("ATT&CK techniques [" .. S.priv .. "]", function()
	local recs, out, err, code = {}, "", "", nil
	setup(function()
		out, err, code = S.sh_err(S.bin .. " batch.lua " .. OPTS .. " " .. table.concat(PATHS, " "))
		for line in out:gmatch("[^\n]+") do
			local rec = cjson.decode(line)
			recs[rec.program:match("[^/]+$")] = rec
		end
	end)

	it("one record per program, the batch ending well", function()
		assert.are.equal(0, code, err)
		assert.is_true(#NAMES >= 200, "the corpus holds " .. #NAMES .. " programs")
		local ids, n = {}, 0
		for _, name in ipairs(NAMES) do
			if not ids[technique(name)] then ids[technique(name)], n = true, n + 1 end
		end
		assert.is_true(n >= 130, "the corpus names " .. n .. " techniques")
		local got = 0
		for _ in pairs(recs) do got = got + 1 end
		assert.are.equal(#NAMES, got, err)
	end)

	for _, name in ipairs(NAMES) do
		local id = technique(name)
		it(name .. " is named " .. id .. (DISCOVERY[id] and ", clean" or ""), function()
			local rec = recs[select(2, built(name))]
			assert.is_table(rec, "no record of " .. name)
			assert.is_true(attack_ids(rec)[id] == true, name .. " not named " .. id .. "\n" .. explain(rec))
			if DISCOVERY[id] then
				assert.are.equal("clean", rec.verdict, name .. " (information only) not clean\n" .. explain(rec))
			end
		end)
	end
end)
