-- SPDX-License-Identifier: MIT
-- The benign corpus (tests/benign/): ordinary shell and Python programs, as
-- an engineer would run them in a sandbox (a C build with gcc and make, a git
-- repository, archives, sqlite3, threads and processes, text pipelines...),
-- each working only in the box's writable places.  The whole corpus runs in
-- one `sbxlua batch.lua` (the analysis box, the default rules); every program
-- must run to its end with exit code 0 and be judged `clean`.  A program that
-- is not names its findings (rule, ATT&CK ids, reason): each is a false
-- positive of the rules, or a program that is not ordinary.
-- scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"
local cjson = require "cjson"
local lfs = require "lfs"

local DIR = "tests/benign"
local OPTS = "-j 2 --wall 30 --progress never"

-- The corpus's file names, sorted (read when the file is loaded, so that
-- each program is a test of its own).
local function corpus()
	local names = {}
	for name in lfs.dir(DIR) do
		if name:match("^%d%d%d%-.+%.[a-z]+$") then names[#names + 1] = name end
	end
	table.sort(names)
	return names
end

-- A JSON number as text, without cjson's ".0".
local function int(n)
	return tostring(math.tointeger(n) or n)
end

-- One line per finding: `rule [T1,T2]: reason`.
local function findings(rec)
	local out = {}
	for _, f in ipairs(rec.reasons or {}) do
		out[#out + 1] = ("%s [%s]: %s"):format(tostring(f.rule),
			table.concat(f.attack or {}, ","), tostring(f.reason))
	end
	for _, e in ipairs(rec.rule_errors or {}) do
		out[#out + 1] = ("rule error %s: %s"):format(tostring(e.rule), tostring(e.error))
	end
	return #out > 0 and table.concat(out, "\n") or "(no finding)"
end

describe("the benign corpus [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	local names = corpus()
	local recs, lines, code, err = {}, 0, nil, nil
	setup(function()
		local errfile = os.tmpname()
		local out
		out, code = S.sh(S.bin .. " batch.lua " .. OPTS .. " " .. DIR .. " 2>" .. errfile .. " </dev/null")
		err = S.read(errfile) or ""
		os.remove(errfile)
		for l in out:gmatch("([^\n]*)\n") do
			lines = lines + 1
			local r = cjson.decode(l)
			recs[r.program:match("[^/]+$")] = r
		end
	end)

	it("one record per program, from one batch", function()
		assert.is_true(#names >= 200, "the corpus has " .. #names .. " programs")
		assert.are.equal(0, code, err)
		assert.are.equal(#names, lines, err)
		local missing = {}
		for _, name in ipairs(names) do
			if not recs[name] then missing[#missing + 1] = name end
		end
		assert.are.equal("", table.concat(missing, " "), "programs without a record")
	end)

	for _, name in ipairs(names) do
		it(name .. " runs to exit 0 and is clean", function()
			local r = recs[name]
			assert.is_table(r, "no record for " .. name)
			local run = r.run or {}
			-- batch keeps no output: run.lua --explore shows what it printed
			local what = ("%s: outcome %s, exit code %s, %s B on stderr%s (%s run.lua --explore %s/%s)\n%s")
				:format(name, tostring(r.outcome), int(r.exit_code), int(run.stderr_bytes),
					run.error and (", " .. run.error) or "", S.bin, DIR, name, findings(r))
			assert.are.same({ "exit", 0 }, { r.outcome, r.exit_code }, what)
			assert.are.equal("clean", r.verdict, what)
		end)
	end
end)
