-- SPDX-License-Identifier: MIT
-- learn.lua: run one program under the strict profile in log mode and
-- write a profile that allows what it used.
--   sbxlua learn.lua [options] PROG [ARGS...]
-- The run is run.lua's standard box; every call the strict lists do not
-- allow is let through and recorded (an event), and the written profile is
-- the strict profile plus one addition per thing used, each with a comment
-- naming the events it came from.  See docs/seccomp.md, "Learning a
-- profile".
local sbx = require "sbx"
local stdbox = require "sbx.stdbox"
local cli = require "sbx.cli"
local options = require "sbx.options"
local report = require "sbx.report"
local profile = require "sbx.profile"
local learn = require "sbx.learn"
-- every module before the first box: a box may write into the caller's
-- directory, and nothing is loaded after it has run
local pipeline = require "sbx.pipeline"

local refuse, reason = cli.refuse, cli.reason

local CLI = {
	name = "learn.lua",
	description = "Runs PROG in the standard box under the strict profile in log mode (every "
		.. "call its lists do not allow is let through and recorded) and writes a profile: the "
		.. "strict profile, plus the calls, the opened paths, the paths deleted, renamed or "
		.. "changed, the connected addresses and the "
		.. "largest mapping the run used, each with a comment naming its events.  Run it with "
		.. "`sbxlua run.lua --profile FILE --mode stop PROG ...`.",
	epilog = "Exit status: 0 the profile is written (whatever the program's own status); 126 it "
		.. "is not (the box could not be set up, the output refused, events lost); 127 the program "
		.. "was not found.",
	options = options.of("learn"),
	arguments = options.PROGRAM,
}

-- whether host path p is dir or lies under it
local function under(p, dir)
	return p == dir or dir == "/" or p:sub(1, #dir + 1) == dir .. "/"
end

-- The output, prepared before the box exists (sbx.output: its directory
-- held by descriptor, no symlink followed); refused in a --rw directory,
-- and, without --force, when anything is at its name.
local function prepare_output(o)
	if not o.output then return nil end
	local out, msg = sbx.output(o.output)
	if not out then refuse("--output %s: %s", o.output, reason(msg)) end
	local dir = o.output:match("^(.*)/[^/]*$") or "."
	local real = stdbox.host_path(dir == "" and "/" or dir)
	for _, b in ipairs(o.rw) do
		if real == nil or under(real, b.src) then
			refuse("--output %s: in the --rw directory %s, which the box writes", o.output, b.src)
		end
	end
	if not o.force and sbx.lstat(o.output) then
		refuse("--output %s: exists (--force replaces a regular file)", o.output)
	end
	return out
end

local function main(argv)
	local o = options.parse_program(CLI, argv)
	local out = prepare_output(o)
	local strict, msg = profile.load("strict")
	if strict == nil then refuse("strict profile: %s", reason(msg)) end
	local L = learn.new()
	if o.union then
		local ok, why = learn.union(L, o.union, strict)
		if not ok then refuse("--union %s: %s", o.union, why) end
	end
	-- the strict profile in log mode: every call its lists lack is let
	-- through and recorded; the refusals it names stay refusals
	o.profile, o.mode = "strict", "log"
	o.stdin = nil -- nothing: a learning run reads no input
	-- the profile on stdout: the program's own output goes to stderr
	if not out then o.stdout = "stderr" end
	local req, err = pipeline.settle(o)
	if not req then cli.fail(err) end
	local r, info = pipeline.run(req)
	if not r then cli.fail(info) end
	-- the same steps after the box as every run's: the set-id sweep too
	local events, verified = pipeline.collect(r, info)
	io.stderr:write(report.text(r, info, events, verified, false))
	if (r.events_dropped or 0) > 0 then
		refuse("learn: %d events past the cap: the profile would be incomplete", r.events_dropped)
	end
	learn.events(L, r.events or {}, strict, info.fresh)
	local prog = { o.prog }
	for _, a in ipairs(o.args or {}) do prog[#prog + 1] = a end
	local text = learn.render(L, prog)
	if not out then
		io.stdout:write(text)
		return 0
	end
	local wok, wmsg = out:write(text, o.force and "replace" or "excl")
	out:close()
	if not wok then refuse("--output %s: %s", o.output, reason(wmsg)) end
	return 0
end

local argv = {}
for i = 1, #arg do argv[i] = arg[i] end
os.exit(main(argv))
