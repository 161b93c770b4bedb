-- SPDX-License-Identifier: MIT
-- Hostile input everywhere: several hundred random command lines of every
-- script, and random specs for the facade, from a fixed seed, in a
-- temporary directory (no real host path is given writable).  Whatever
-- the input: no traceback, no crash, no hang, only the documented exit
-- statuses, and every line on stderr one of sbxlua's own (or a program's
-- report line).  scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"
local sbx = require "sbx"
local options = require "sbx.options"
local stdbox = require "sbx.stdbox"

local SEED = 20261205
local LINES = 240 -- command lines per run of this file
local SPECS = 400 -- random specs

local top = S.sh("pwd"):gsub("\n$", "")
local bin = S.bin:sub(1, 1) == "/" and S.bin or top .. "/" .. S.bin

-- values an operator may type by mistake, or a hostile caller on purpose
local VALUES = { "", ":", "::", "$(id)", "`id`", "1.5", "-1", "0", "1", "60", "1e99", "nan", "inf",
	"99999999999999999999", "0x10", "1K", "64M", "9T", "x\ny", "\27[2K", "%s%n%d", "none", "host",
	"sink", "stop", "deny", "log", "default", "strict", "watch", "ns", "process", "oci", "runc",
	"podman", "/", "/nonexistent", "/dev/null", "/proc/self/mem", "rel", "rel:/work/x", "/tmp:/tmp",
	"K=V", "=", "A=", "=B", "1/2", "0/0", "3/2", "auto", "always", "never", "25,6667", "0,70000",
	("a"):rep(5000), "-", "--", "-x", "--help", "/work", "/work/../etc", "x@sha256:00",
	"1/1", "2/1" }

-- programs a box runs, each a documented status: 0, 1, 3
local PROGS = { { "/bin/true" }, { "/bin/false" }, { "/bin/sh", "-c", "exit 3" }, { "true" } }

-- a spec's strings may hold a NUL too (an argv cannot)
local SPEC_VALUES = { "a\0b", "/\0" }
for _, v in ipairs(VALUES) do SPEC_VALUES[#SPEC_VALUES + 1] = v end

local function pick(t, rnd) return t[rnd(#t)] end

-- a batch takes any word after its options as a path to walk and run:
-- its values name no host directory (the temporary one's names only)
local BATCH_VALUES = { "/nonexistent" }
for _, v in ipairs(VALUES) do
	if v:sub(1, 1) ~= "/" then BATCH_VALUES[#BATCH_VALUES + 1] = v end
end

-- one random command line of script: options (most from its registry,
-- some unknown or misspelt) then, most of the time, a program
local function command_line(script, rnd)
	local opts = options.of(script)
	local argv = {}
	for _ = 1, rnd(5) - 1 do
		local o = pick(opts, rnd)
		local name = pick({ o[1]:match("%-%-%S+$"), o[1]:match("^%-%a") or o[1]:match("%-%-%S+$") }, rnd)
		if rnd(12) == 1 then name = pick({ "--bogus", "-Z", "--mem=", "--", "-" }, rnd) end
		argv[#argv + 1] = name
		if o[2] and rnd(10) > 1 then argv[#argv + 1] = pick(script == "batch" and BATCH_VALUES or VALUES, rnd) end
	end
	if script == "batch" then
		if rnd(5) > 1 then argv[#argv + 1] = pick({ "progs", "progs/a.sh", "/nonexistent", "" }, rnd) end
	elseif script ~= "check" and rnd(6) > 1 then
		for _, w in ipairs(pick(PROGS, rnd)) do argv[#argv + 1] = w end
	elseif script == "check" and rnd(4) == 1 then
		argv[#argv + 1] = pick(VALUES, rnd)
	end
	return argv
end

-- the statuses each script documents (its --help's epilog)
local STATUS = {
	run = { [0] = true, [1] = true, [3] = true, [124] = true, [125] = true, [126] = true, [127] = true },
	learn = { [0] = true, [126] = true, [127] = true },
	batch = { [0] = true, [126] = true },
	check = { [0] = true, [1] = true, [126] = true },
}

-- the lines sbxlua writes on stderr (the report, a refusal, the batch's
-- and check's lines, the behaviour summary and the verdict of --behaviour
-- and --explore); anything else is a traceback, a crash's words or a
-- program's stray output
local OWN = { "^sbxlua: ", "^sandbox: ", "^batch: ", "^check: ", "^verdict: ", "^%l[%l_]+ +%S",
	"^ +%S" }

local function own_line(l)
	if l == "" then return true end
	for _, p in ipairs(OWN) do
		if l:find(p) then return true end
	end
	return false
end

describe("hostile input [" .. S.priv .. "]", function()
	local dir, rm
	setup(function()
		dir, rm = S.tmpdir()
		os.execute("mkdir " .. S.q(dir .. "/progs") .. " && printf '#!/bin/sh\\nexit 0\\n' > "
			.. S.q(dir .. "/progs/a.sh") .. " && chmod 755 " .. S.q(dir .. "/progs/a.sh"))
	end)
	teardown(function() rm() end)

	it(("%d random command lines: no traceback, no crash, no hang, documented statuses"):format(LINES),
		function()
			local rng = math.random
			math.randomseed(SEED)
			local scripts = { "run", "run", "run", "learn", "batch", "check" }
			local bad = {}
			for i = 1, LINES do
				local script = pick(scripts, rng)
				local argv = command_line(script, rng)
				local q = {}
				for k, a in ipairs(argv) do q[k] = S.q(a) end
				local err = dir .. "/err"
				-- a hang is a kill after 60 s: 137, which no script documents
				local _, code = S.sh(("cd %s && timeout -s KILL 60 %s %s.lua %s </dev/null >/dev/null 2>%s"):format(
					S.q(dir), S.q(bin), script, table.concat(q, " "), S.q(err)))
				local text = S.read(err) or ""
				local ok = STATUS[script][code]
				-- a program a filter killed: 128+N with the report's line
				if script == "run" and code > 128 and code < 160 and text:find("\nsandbox: killed: signal")
					or text:find("^sandbox: killed: signal") then
					ok = true
				end
				for l in (text .. "\n"):gmatch("([^\n]*)\n") do
					if not own_line(l) then ok = false end
				end
				if text:find("traceback") or text:find("%.lua:%d+:") then ok = false end
				if not ok then
					bad[#bad + 1] = ("#%d %s.lua %s -> %d\n%s"):format(i, script, table.concat(q, " "), code, text)
				end
				-- what a run left in the directory is its own (outputs, keeps)
				os.execute("cd " .. S.q(dir) .. " && find . -mindepth 1 -maxdepth 1 ! -name progs "
					.. "-exec rm -rf {} + 2>/dev/null")
			end
			assert.are.equal("", table.concat(bad, "\n"))
		end)

	-- a random value for a spec key: hostile types and shapes
	local function any(rnd, depth)
		local k = rnd(12)
		if k == 1 then return rnd(1 << 20) - 10 end
		if k == 2 then return pick(SPEC_VALUES, rnd) end
		if k == 3 then return rnd(2) == 1 end
		if k == 4 then return -1.5 end
		if k == 5 then return math.maxinteger end
		if k == 6 then return function() end end
		if k == 7 then return io.stdout end
		if k == 8 and depth < 3 then
			local t = {}
			for i = 1, rnd(4) do t[i] = any(rnd, depth + 1) end
			return t
		end
		if k == 9 and depth < 3 then return { [pick(SPEC_VALUES, rnd)] = any(rnd, depth + 1) } end
		if k == 10 then return setmetatable({}, { __index = function() error("hostile __index") end }) end
		return nil
	end

	local SPEC_KEYS = { "namespaces", "uid", "gid", "hostname", "root", "read_only_root", "mounts",
		"net_lo", "argv", "path", "env", "cwd", "rlimits", "landlock", "stdout", "stderr",
		"output_limit", "wall", "new_session", "drop_caps", "no_new_privs", "memory_limit",
		"task_limit", "cpu_limit", "mode", "notify", "capture", "sysctl", "tty_raw" }
	local BUILD_KEYS = { "prog", "args", "ro", "rw", "tmp", "env", "cwd", "limits", "net", "profile",
		"mode", "cgroup", "decoys", "host_id", "filter", "stdout", "stderr", "notify", "sink_ports" }

	it(("%d random specs: a box or a clear error, never a crash"):format(SPECS), function()
		math.randomseed(SEED + 1)
		local rnd = math.random
		local bad = {}
		for i = 1, SPECS do
			local spec = { argv = { "/bin/true" }, path = "/bin/true" }
			for _ = 1, rnd(4) do spec[pick(SPEC_KEYS, rnd)] = any(rnd, 0) end
			local ok, b, msg = pcall(sbx.box, spec)
			if ok and b then
				b:close()
			elseif ok and type(msg) ~= "string" or not ok and type(b) ~= "string" then
				bad[#bad + 1] = ("spec #%d: no message"):format(i)
			elseif not ok and b:find("traceback") then
				bad[#bad + 1] = ("spec #%d: %s"):format(i, b)
			end
			local o = { prog = "/bin/true" }
			for _ = 1, rnd(4) do o[pick(BUILD_KEYS, rnd)] = any(rnd, 0) end
			local bok, s, why = pcall(stdbox.build, o)
			if bok and not s and type(why) ~= "string" or not bok and type(s) ~= "string" then
				bad[#bad + 1] = ("build #%d: no message"):format(i)
			end
		end
		assert.are.equal("", table.concat(bad, "\n"))
	end)
end)
