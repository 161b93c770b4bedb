-- SPDX-License-Identifier: MIT
-- batch.lua and sbx.verdict: real programs in real boxes (tests/progs/batch),
-- every verdict and reason, -j 1 against -j 2, resuming, SIGINT, shards.
-- scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"
local verdict = require "sbx.verdict"
local batch = require "sbx.batch"
local cjson = require "cjson"
local json = require "sbx.json"

local PROGS = "tests/progs/batch"
-- no sleep skipped: the sleeper here is the one the wall clock ends
-- (tests/sleep_spec.lua has batch's skipped sleeps)
local OPTS = "--wall 2 --pids 16 --output-limit 64K --progress never --sleep-skip 0"

-- Runs `sbxlua batch.lua ARGS` (a shell string); returns stdout, stderr,
-- status.
local function batchlua(args)
	return S.sh_err(S.bin .. " batch.lua " .. args)
end

local function records(s)
	local t = {}
	for _, l in ipairs(S.lines(s)) do
		local r = cjson.decode(l)
		t[r.program:match("[^/]+$")] = r
	end
	return t
end

-- a line without what differs between two runs of one program
local function stable(l)
	local r = cjson.decode(l)
	r.timings = nil
	r.run.measured = nil
	r.run.analysis_date = nil
	r.run.deaths = nil
	-- the decoys' markers are random per run (docs/written-files.md)
	r.run.decoys = nil
	-- what a program did before a limit stopped it depends on when the
	-- limit was seen (a fork storm's forks are all recorded by the
	-- analysis box): its verdict and outcome are compared, not its calls
	if r.limit then r.run.events, r.run.behaviour = nil, nil end
	-- when the supervisor received each call (docs/behaviour.md)
	for _, e in ipairs(r.run.events or {}) do
		e.time_ms = nil
		-- the sleeps skipped: each jump runs to its deadline from when the
		-- box was seen waiting (docs/standard-box.md)
		if e.cause == "sleeps" then e.seconds, e.longest = nil, nil end
	end
	for _, f in ipairs(r.run.files or {}) do
		if f.decoy then
			f.markers = nil
			for _, h in ipairs(require("sbx.written").HASHES) do f[h] = nil end
		end
	end
	return json.encode(r)
end

local function sorted_stable(s)
	local t = {}
	for _, l in ipairs(S.lines(s)) do t[#t + 1] = stable(l) end
	table.sort(t)
	return t
end

-- (info findings, a shell script run, are left out: tests/infolevel_spec.lua
-- has them)
local function rules_of(r)
	local t = {}
	for _, f in ipairs(r.reasons) do
		if f.verdict ~= "info" then t[#t + 1] = f.rule end
	end
	table.sort(t)
	return table.concat(t, ",")
end

-- a directory of n small distinct scripts
local function scripts(dir, n, first)
	for i = first or 1, n do
		S.write(("%s/p%02d.sh"):format(dir, i), ("#!/bin/sh\necho %d\n"):format(i))
		os.execute(("chmod 755 %s/p%02d.sh"):format(S.q(dir), i))
	end
end

local write = S.write

describe("batch.lua [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	describe("verdicts of real programs", function()
		local out, err, code
		setup(function() out, err, code = batchlua("-j 2 " .. OPTS .. " " .. PROGS) end)

		it("one line per program, the batch going on past every failure", function()
			assert.are.equal(0, code, err)
			assert.are.equal(8, #S.lines(out), err)
			assert.matches("batch: 8 program%(s%)\n", err)
			assert.matches("batch: verdict suspicious: 3\n", err)
			assert.matches("batch: limit hit wall: 1\n", err)
			assert.matches("batch: slowest %d+%.%d%d s tests/progs/batch/sleeper%.sh\n", err)
		end)

		it("every verdict and reason as expected", function()
			local r = records(out)
			local want = {
				["benign.sh"] = { "exit", "clean", "", 0 },
				["exit3.sh"] = { "exit", "clean", "", 3 },
				["sleeper.sh"] = { "wall", "suspicious", "limit,sleeper", 124 },
				["forker.sh"] = { "tasks", "suspicious", "limit,storm", 124 },
				["flood.sh"] = { "output", "suspicious", "limit", 124 },
				["noexec-format"] = { "cannot", "unknown", "never_ran", 126 },
				["badinterp.sh"] = { "cannot", "unknown", "never_ran", 126 },
				-- mode 0644: the analysis box runs it by its content
				["notexec.sh"] = { "exit", "clean", "", 0 },
			}
			for name, w in pairs(want) do
				assert.is_table(r[name], name)
				assert.are.same(w, { r[name].outcome, r[name].verdict, rules_of(r[name]), r[name].exit_code }, name)
				assert.matches("^[0-9a-f]+$", r[name].sha256)
				assert.are.equal(64, #r[name].sha256)
			end
			local by = {}
			for _, f in ipairs(r["sleeper.sh"].reasons) do by[f.rule] = f end
			assert.are.equal("ran until the wall clock (2 s) while idle", by.sleeper.reason)
			assert.are.same({ "T1497.003" }, by.sleeper.attack)
			assert.are.equal("hit a limit: wall", by.limit.reason)
			assert.are.equal("process storm: stopped by the task limit", r["forker.sh"].reasons[1].reason)
			assert.are.equal("hit a limit: output", r["flood.sh"].reasons[1].reason)
			assert.are.equal("never ran: cannot execute: ENOEXEC", r["noexec-format"].reasons[1].reason)
			assert.are.equal("never ran: cannot execute: ENOENT", r["badinterp.sh"].reasons[1].reason)
			assert.are.same({ "/bin/sh" }, r["notexec.sh"].run.run_as)
			local noted = false
			for _, e in ipairs(r["notexec.sh"].run.events) do
				noted = noted or e.text == "note: not executable: run by its content: /bin/sh /work/notexec.sh"
			end
			assert.is_true(noted)
			assert.are.equal(5, r["sleeper.sh"].severity)
			assert.are.equal(0, r["benign.sh"].severity)
			-- the analysis box: the program's exec recorded first, its exit last
			local ev = r["benign.sh"].run.events
			assert.are.same({ "exec", "/work/benign.sh" }, { ev[1].kind, ev[1].path })
			assert.are.equal("exit", ev[#ev].kind)
			assert.matches("^sha256:", r["benign.sh"].run.digest)
		end)

		it("--jail does not run a file that is not executable", function()
			local jout, jerr, jcode = batchlua("--jail " .. OPTS .. " tests/progs/batch/notexec.sh")
			assert.are.equal(0, jcode, jerr)
			local r = records(jout)["notexec.sh"]
			assert.are.same({ "error", "unknown", "never_ran", 126 },
				{ r.outcome, r.verdict, rules_of(r), r.exit_code })
			assert.matches("not executable", r.reasons[1].reason)
		end)

		it("-j 1 gives the same sorted lines as -j 2", function()
			local out1, err1, code1 = batchlua("-j 1 " .. OPTS .. " " .. PROGS)
			assert.are.equal(0, code1, err1)
			assert.are.same(sorted_stable(out), sorted_stable(out1))
		end)
	end)

	describe("resuming and interrupting", function()
		local dir, done
		before_each(function() dir, done = S.tmpdir() end)
		after_each(function() done() end)

		it("a resumed batch runs no program twice", function()
			os.execute("mkdir " .. S.q(dir .. "/progs"))
			scripts(dir .. "/progs", 3)
			local o = dir .. "/out.jsonl"
			local _, err, code = batchlua("-j 2 --progress never --output " .. S.q(o) .. " " .. S.q(dir .. "/progs"))
			assert.are.equal(0, code, err)
			assert.are.equal(3, #S.lines(S.read(o)))
			scripts(dir .. "/progs", 5, 4)
			-- the old name of --output still works, and says its new one
			local out2, err2, code2 = batchlua("-j 2 --progress never --out " .. S.q(o) .. " " .. S.q(dir .. "/progs"))
			assert.are.equal(0, code2, err2)
			assert.are.equal("", out2)
			assert.matches("^sbxlua: %-%-out is now %-%-output %(the old name still works%)\n", err2)
			assert.matches("batch: 2 program%(s%)\n", err2)
			assert.matches("batch: skipped 3 %(recorded already with the same options%)\n", err2)
			local seen = {}
			for _, l in ipairs(S.lines(S.read(o))) do
				local r = cjson.decode(l)
				assert.is_nil(seen[r.sha256], r.program)
				seen[r.sha256] = true
			end
			assert.are.equal(5, #S.lines(S.read(o)))
			-- other limits: another record of the same programs
			local _, err3 = batchlua("-j 2 --progress never --wall 7 --output " .. S.q(o) .. " " .. S.q(dir .. "/progs"))
			assert.matches("batch: 5 program%(s%)\n", err3)
		end)

		-- the list is keyed by sha256 alone; the other hashes are made
		-- where the box is, from the file read again
		it("a program changed after it was listed is recorded as changed, not run; the others keep all hashes", function()
			os.execute("cp /bin/true " .. S.q(dir .. "/a") .. " && cp /bin/true " .. S.q(dir .. "/b")
				.. " && printf 1 >> " .. S.q(dir .. "/b"))
			local out, err, code = S.sh_err(S.bin .. " -e " .. S.q(([[
				local batch = require "sbx.batch"
				local base, rules, options = assert(batch.setup { limits = {} })
				local todo = batch.todo({ %q, %q }, options, {})
				assert(#todo == 2 and todo[1].hashes == nil, "the list holds the sha256 alone")
				local f = assert(io.open(%q, "ab")); f:write("x"); f:close()
				batch.run(todo, base, rules, 1, function(rec)
					print(rec.program:match("[^/]+$"), rec.outcome, rec.md5 or "-", rec.tlsh or "-", rec.run.error or "-")
				end)
			]]):format(dir .. "/a", dir .. "/b", dir .. "/b")))
			assert.are.equal(0, code, err)
			local recs = {}
			for name, line in out:gmatch("(%a)\t([^\n]*)") do recs[name] = line end
			local new = S.sh("sha256sum " .. S.q(dir .. "/b")):match("^%x+")
			assert.are.equal(("error\t-\t-\t%s/b: changed since it was hashed (sha256 %s)"):format(dir, new), recs.b)
			local md5 = S.sh("md5sum " .. S.q(dir .. "/a")):match("^%x+")
			assert.matches("^exit\t" .. md5 .. "\t%x+\t%-$", recs.a)
		end)

		it("batch.without refuses what is not a list and a path", function()
			assert.has_error(function() batch.without(nil, "x") end,
				"bad argument #1 to 'without' (table expected, got nil)")
			assert.has_error(function() batch.without({}, 3) end,
				"bad argument #2 to 'without' (string expected, got number)")
			assert.are.same({ "a" }, (batch.without({ "a" }, dir .. "/none")))
		end)

		it("the output file inside the directory walked is not one of its programs", function()
			os.execute("mkdir " .. S.q(dir .. "/progs"))
			scripts(dir .. "/progs", 2)
			local o = dir .. "/progs/out.jsonl"
			for round = 1, 2 do
				local _, err, code = batchlua("-j 2 --progress never --output " .. S.q(o) .. " " .. S.q(dir .. "/progs"))
				assert.are.equal(0, code, err)
				-- (the first batch makes the file after it walked the directory)
				assert.are.equal(round == 2, err:find("batch: " .. dir
					.. "/progs/out.jsonl: the batch's own output file (not run)\n", 1, true) ~= nil, err)
				assert.are.equal(2, #S.lines(S.read(o)), "round " .. round)
			end
			for _, l in ipairs(S.lines(S.read(o))) do
				assert.falsy(cjson.decode(l).program:find("out.jsonl", 1, true), l)
			end
		end)

		it("a cut last line is left out and the next line starts a line of its own", function()
			os.execute("mkdir " .. S.q(dir .. "/progs"))
			scripts(dir .. "/progs", 2)
			local o = dir .. "/out.jsonl"
			write(o, '{"program":"cut')
			local _, err, code = batchlua("-j 2 --progress never --output " .. S.q(o) .. " " .. S.q(dir .. "/progs"))
			assert.are.equal(0, code, err)
			assert.matches("its last line is cut %(left out%)", err)
			local l = S.lines(S.read(o))
			assert.are.equal(3, #l)
			assert.are.equal('{"program":"cut', l[1])
			-- in the programs' order (sorted here all the same)
			local names = { cjson.decode(l[2]).program:match("[^/]+$"), cjson.decode(l[3]).program:match("[^/]+$") }
			table.sort(names)
			assert.are.same({ "p01.sh", "p02.sh" }, names)
			local recs, bad = batch.read_lines(o)
			assert.are.same({ 2, 1 }, { #recs, bad })
		end)

		it("the progress line", function()
			assert.are.equal("batch: 3/10  1.5/s  ETA 5s  clean 2, malicious 1",
				batch.progress(3, 10, 2, { clean = 2, malicious = 1 }))
		end)

		it("SIGINT mid-run leaves whole lines only and stops the batch", function()
			os.execute("mkdir " .. S.q(dir .. "/progs"))
			scripts(dir .. "/progs", 2)
			for i = 3, 5 do write(("%s/progs/p%02d.sh"):format(dir, i), "#!/bin/sh\nexec sleep 600\n", "755") end
			local o = dir .. "/out.jsonl"
			-- SIGINT restored to its default: a background job of a
			-- non-interactive shell starts with it ignored
			local p = assert(io.popen(("env --default-signal=INT %s batch.lua -j 1 --progress never --sleep-skip 0 --output %s %s"
				.. " 2>%s </dev/null & echo $!; wait $!; echo $?"):format(S.bin, S.q(o), S.q(dir .. "/progs"),
				S.q(dir .. "/err"))))
			local pid = p:read("l")
			-- the event: the first two programs recorded (the third, a
			-- sleeper, runs now or is about to)
			while #S.lines(S.read(o) or "") < 2 do os.execute("sleep 0.05") end
			os.execute("kill -INT " .. pid)
			local status = p:read("l")
			p:close()
			assert.are.equal("130", status, S.read(dir .. "/err"))
			local data = S.read(o)
			assert.are.equal("\n", data:sub(-1))
			for _, l in ipairs(S.lines(data)) do
				local r = cjson.decode(l)
				assert.are.equal("exit", r.outcome)
			end
			assert.are.equal(2, #S.lines(data))
		end)

		it("shards add up to the whole, each program in one", function()
			os.execute("mkdir " .. S.q(dir .. "/progs"))
			scripts(dir .. "/progs", 7)
			local whole = batchlua("-q -j 2 " .. S.q(dir .. "/progs"))
			local parts, seen = {}, {}
			for k = 1, 3 do
				local out, err, code = batchlua(("-q -j 2 --shard %d/3 %s"):format(k, S.q(dir .. "/progs")))
				assert.are.equal(0, code, err)
				for _, l in ipairs(S.lines(out)) do
					local r = cjson.decode(l)
					assert.is_nil(seen[r.program])
					seen[r.program] = k
					parts[#parts + 1] = l
				end
			end
			local t = {}
			for _, l in ipairs(parts) do t[#t + 1] = stable(l) end
			table.sort(t)
			assert.are.same(sorted_stable(whole), t)
			assert.are.equal(7, #t)
			local _, err = batchlua("--shard 4/3 " .. S.q(dir))
			assert.matches("%-%-shard 4/3: expected K/N", err)
		end)

		it("--merge: each record once, sorted by program", function()
			os.execute("mkdir " .. S.q(dir .. "/progs"))
			scripts(dir .. "/progs", 3)
			local a, b = dir .. "/a.jsonl", dir .. "/b.jsonl"
			batchlua("-q --shard 1/2 --output " .. S.q(a) .. " " .. S.q(dir .. "/progs"))
			batchlua("-q --shard 2/2 --output " .. S.q(b) .. " " .. S.q(dir .. "/progs"))
			local out, err, code = batchlua("--merge " .. S.q(a) .. " " .. S.q(b) .. " " .. S.q(a))
			assert.are.equal(0, code, err)
			local l = S.lines(out)
			assert.are.equal(3, #l)
			for i, name in ipairs { "p01.sh", "p02.sh", "p03.sh" } do
				assert.are.equal(name, cjson.decode(l[i]).program:match("[^/]+$"))
			end
		end)

		it("--merge of a directory (it opens, its read fails): a usage error naming it, no traceback", function()
			local _, err, code = batchlua("--merge " .. S.q(dir))
			assert.are.equal(126, code, err)
			assert.are.equal("sbxlua: --merge: " .. dir .. ": Is a directory\n", err)
		end)

		it("--rules: an operator's rule and word, a rule that errors is reported", function()
			os.execute("mkdir " .. S.q(dir .. "/progs"))
			scripts(dir .. "/progs", 1)
			local rf = dir .. "/mine.lua"
			write(rf, [[return {
				{ name = "said_one", fn = function(run)
					if run.exit_code == 0 then
						return { verdict = "quarantine", severity = 9, reason = "exited 0", attack = { "T1059" } }
					end
				end },
				{ name = "broken", fn = function(run) return run.nothing.here end },
				{ name = "no_io", fn = function() return io == nil and os == nil and require == nil
					and { verdict = "clean", severity = 0, reason = "no io" } or nil end },
			}]], "644")
			local out, err, code = batchlua("-q --rules " .. S.q(rf) .. " " .. S.q(dir .. "/progs"))
			assert.are.equal(0, code, err)
			local r = cjson.decode(out)
			assert.are.equal("quarantine", r.verdict)
			assert.are.equal(9, r.severity)
			local mine = {}
			for _, f in ipairs(r.reasons) do
				if f.verdict ~= "info" then mine[#mine + 1] = f.rule end
			end
			assert.are.equal("said_one,no_io", table.concat(mine, ","))
			assert.are.equal("broken", r.rule_errors[1].rule)
			assert.matches("attempt to index", r.rule_errors[1].error)
			-- a rules file others could write is refused
			os.execute("chmod 666 " .. S.q(rf))
			local _, err2, code2 = batchlua("-q --rules " .. S.q(rf) .. " " .. S.q(dir .. "/progs"))
			assert.are.equal(126, code2)
			assert.matches("writable by others", err2)
		end)

		it("a symbolic link is not followed, as an argument or in a directory", function()
			os.execute("mkdir " .. S.q(dir .. "/progs"))
			scripts(dir .. "/progs", 1)
			os.execute(("ln -s /bin/true %s/progs/link; ln -s %s/progs %s/dirlink"):format(S.q(dir), S.q(dir), S.q(dir)))
			local out, err = batchlua("-q " .. S.q(dir .. "/progs") .. " " .. S.q(dir .. "/dirlink"))
			assert.are.equal(1, #S.lines(out))
			assert.matches("dirlink: a symbolic link %(not followed%)", err)
		end)
	end)
end)

describe("sbx.verdict [" .. S.priv .. "]", function()
	local rules = assert(verdict.defaults())

	local function judge(run)
		local v = verdict.judge(run, rules)
		local t = {}
		for _, f in ipairs(v.reasons) do t[#t + 1] = f.rule end
		return v.verdict, table.concat(t, ",")
	end

	it("a run without behaviour: rules over absent fields do not fire", function()
		assert.are.same({ "clean", "" }, { judge { outcome = "exit", exit_code = 0, events = { { kind = "exit", code = 0 } } } })
		assert.are.same({ "clean", "" }, { judge { outcome = "exit", exit_code = 0 } })
	end)

	it("a refusal: suspicious, malicious when the box was stopped for it", function()
		assert.are.same({ "malicious", "left_box" }, { judge { outcome = "signal", exit_code = 125,
			events = { { kind = "killed", cause = "refused", signal = 31, name = "SIGSYS" } } } })
		-- the technique rule names what the refused call was for
		local v, why = judge { outcome = "exit", exit_code = 0,
			events = { { kind = "refused", syscall = "mount" }, { kind = "exit", code = 0 } } }
		assert.are.same({ "malicious", "left_box,escape_to_host" }, { v, why })
		v, why = judge { outcome = "exit", exit_code = 0,
			events = { { kind = "ptrace", syscall = "ptrace", flags = 0, answer = "deny", errno = "EPERM" } } }
		assert.are.same({ "suspicious", "left_box,debugger_checks" }, { v, why })
	end)

	it("evidence by process: credentials, the network, written executables, ptrace", function()
		local run = { outcome = "exit", exit_code = 0, events = {
			{ kind = "exec", pid = 2, ppid = 1, path = "/usr/bin/python3", argv = { "python3", "x.py" }, answer = "allow" },
			{ kind = "open", pid = 2, ppid = 1, path = "/etc/shadow", flags = 0, answer = "allow" },
			{ kind = "ptrace", pid = 2, ppid = 1, syscall = "ptrace", flags = 16, answer = "deny" } },
			sink = { dns = { { hostname = "x.example", answer = "10.0.0.2" } } },
			files_dropped = { { path = "/tmp/a.sh", mode = "0755", size = 9, sha256 = ("0"):rep(64) } } }
		local v, why = judge(run)
		local all = verdict.judge(run, rules)
		assert.are.equal("malicious", v)
		assert.are.equal("left_box,network,wrote_executable,shadow,python_script,ptrace_injection", why)
		assert.are.equal(8, all.severity)
		assert.are.equal("read the password hashes: read /etc/shadow", all.reasons[4].reason)
		assert.are.same({ "T1003.008" }, all.reasons[4].attack)
		assert.are.equal("credential-access", all.reasons[4].tactic)
		-- information alone leaves a run clean
		run = { outcome = "exit", exit_code = 0, events = {
			{ kind = "exec", pid = 2, ppid = 1, path = "/usr/bin/uname", argv = { "uname", "-a" }, answer = "allow" } } }
		all = verdict.judge(run, rules)
		assert.are.same({ "clean", 0, "system_info", "info" },
			{ all.verdict, all.severity, all.reasons[1].rule, all.reasons[1].verdict })
		-- 64 command executions are a build as often as a storm
		run.events = {}
		for i = 1, 64 do
			run.events[i] = { kind = "exec", pid = i + 1, ppid = 1, path = "/bin/true", argv = { "true" },
				answer = "allow" }
		end
		assert.are.same({ "clean", "storm" }, { judge(run) })
	end)

	it("the worst verdict wins and every reason is kept", function()
		local v, why = judge { outcome = "wall", exit_code = 124, measured = { cpu = 0.01 },
			events = { { kind = "killed", cause = "wall", limit = 10 },
				{ kind = "ptrace", syscall = "ptrace", flags = 16, answer = "deny" } } }
		assert.are.equal("malicious", v)
		assert.are.equal("left_box,limit,sleeper,ptrace_injection", why)
	end)

	it("a busy program stopped by the wall clock is no sleeper", function()
		assert.are.same({ "suspicious", "limit" }, { judge { outcome = "wall", exit_code = 124,
			measured = { cpu = 9.5 }, events = { { kind = "killed", cause = "wall", limit = 10 } } } })
	end)

	it("a bad finding is reported as the rule's error", function()
		local v = verdict.judge({}, { { name = "x", fn = function() return { verdict = "odd" } end },
			{ name = "y", fn = function() error("boom") end } })
		assert.are.equal("clean", v.verdict)
		assert.are.equal("x", v.errors[1].rule)
		assert.matches("severity", v.errors[1].error)
		assert.matches("boom", v.errors[2].error)
	end)

	it("validates its arguments", function()
		assert.has_error(function() verdict.judge(nil, {}) end, "bad argument #1 to 'judge' (table expected, got nil)")
		assert.has_error(function() verdict.load_file(1) end, "bad argument #1 to 'load_file' (string expected, got number)")
		assert.is_nil((verdict.check_rule { name = "a b", fn = print }))
		assert.is_nil((verdict.check_rule { name = "a", fn = print, typo = 1 }))
		assert.is_nil((verdict.load_file("/nonexistent/rules.lua")))
	end)
end)
