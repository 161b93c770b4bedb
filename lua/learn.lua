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
local report = require "sbx.report"
local limits = require "sbx.limits"
local profile = require "sbx.profile"
-- every module before the first box: a box may write into the caller's
-- directory, and nothing is loaded after it has run
local backend = require "sbx.backend"
require "sbx.backend.process"
require "sbx.backend.oci"
require "sbx.backend.rootfs"

local refuse, reason = cli.refuse, cli.reason
local clean_box_path, host_path = cli.clean_box_path, cli.host_path

local function set_limit(name)
	return function(o, typed, opt)
		local n, msg = limits.parse(name, typed)
		if not n then refuse("%s %s: %s", opt, typed, msg) end
		o.limits[name] = n
	end
end

-- The options of run.lua's box that a learning run needs, and learn's own.
local OPTIONS = {
	{ "-o --output", "FILE", "write the profile to FILE (default: stdout); never replaced unless "
		.. "--force, never a symlink, never in a --rw directory",
		function(o, typed) o.output = typed end },
	{ "--force", nil, "replace FILE when it is a regular file",
		function(o) o.force = true end },
	{ "--union", "FILE", "add what FILE (a learned profile) allows: nothing it allows is removed",
		function(o, typed) o.union = typed end },
	{ "--ro", "PATH[:DEST]", "bind a host path read-only (at DEST, default PATH)",
		function(o, typed, opt)
			local real, dst = host_path(opt, typed)
			table.insert(o.ro, { src = real, dst = clean_box_path(opt, typed, dst or real) })
		end },
	{ "--rw", "PATH[:DEST]", "bind a host directory writable (e.g. --rw .:/work)",
		function(o, typed, opt)
			local real, dst = host_path(opt, typed)
			dst = clean_box_path(opt, typed, dst or real)
			local ok, why = stdbox.check_writable(real)
			if not ok then refuse("--rw %s: %s", typed, why) end
			table.insert(o.rw, { src = real, dst = dst })
		end },
	{ "--env", "K=V", "set a variable (the environment is otherwise fixed)",
		function(o, typed)
			local k, v = typed:match("^([^=]+)=(.*)$")
			if not k then refuse("--env %s: expected K=V", typed) end
			o.env[k] = v
		end },
	{ "--cwd", "DIR", "working directory inside the box (default /work)",
		function(o, typed, opt) o.cwd = clean_box_path(opt, typed, typed) end },
	{ "--wall", "S", "wall-clock limit in seconds (default 60)", set_limit("wall") },
	{ "--cpu", "S", "CPU time of the whole box (default 30)", set_limit("cpu") },
	{ "--mem", "SIZE", "memory limit (default 512M)", set_limit("memory") },
	{ "--pids", "N", "task limit (default 128)", set_limit("tasks") },
}

local CLI = {
	name = "learn.lua",
	description = "Runs PROG in the standard box under the strict profile in log mode (every "
		.. "call its lists do not allow is let through and recorded) and writes a profile: the "
		.. "strict profile, plus the calls, the opened paths, the paths deleted, renamed or "
		.. "changed, the connected addresses and the "
		.. "largest mapping the run used, each with a comment naming its events.  Run it with "
		.. "`sbxlua run.lua --profile FILE --mode stop PROG ...`.",
	epilog = "Exit status: 0 the profile is written (whatever the program's own status); 126 it "
		.. "is not (the box could not be set up, the output refused, events lost).",
	options = OPTIONS,
	arguments = { { "PROG", "the program: a path, or a name found in the box's PATH" },
		{ "ARGS", "its arguments", "*" } },
}

local function parse(argv)
	local args = cli.parse(CLI, argv, report.EXIT_CANNOT)
	local o = cli.apply(OPTIONS, args, { ro = {}, rw = {}, socket = {}, tmp = {}, env = {}, limits = {} })
	if (os.getenv("SBXLUA_CGROUP") or "") ~= "" then
		o.cgroup = os.getenv("SBXLUA_CGROUP")
		if o.cgroup == "none" then o.cgroup = false end
	end
	o.prog, o.args = args.PROG, args.ARGS
	return o
end

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

-- The calls the default profile refuses (always or on a condition): a
-- learned profile never allows them, whatever the run used.
local function default_refusals()
	local d = assert(profile.load("default"))
	local set = {}
	for _, r in ipairs(d.rules) do set[r.call] = true end
	return set
end

-- What the strict profile itself allows unconditionally.
local function strict_allows(p)
	local set = {}
	for _, r in ipairs(p.rules) do
		if r.action == "allow" and r.args == nil then set[r.call] = true end
	end
	return set
end

-- The additions: calls, opens, changed paths (deleted, renamed, their
-- attributes changed) and addresses, each name -> { n = events,
-- union = bool }; mmap = { size =, n = } the largest mapping.
local function new_learned()
	return { calls = {}, open = {}, change = {}, connect = {}, refused = {}, mmap = nil }
end

local function note(t, key, n, from_union)
	local e = t[key] or { n = 0 }
	t[key] = e
	if from_union then e.union = true else e.n = e.n + n end
end

local INET = { inet = true, inet6 = true }

local function learn_events(L, events, refusals, base)
	for _, e in ipairs(events) do
		local n = e.count or 1
		if e.kind == "open" and e.path then
			-- a path the supervisor could not read whole is "?", and one it
			-- could not name against the cwd stays relative: neither is a
			-- path to allow (the box chooses them; "?" would let every
			-- unreadable path through in later runs)
			if e.path:sub(1, 1) == "/" then note(L.open, e.path, n) end
		elseif (e.kind == "delete" or e.kind == "rename" or e.kind == "attribute") and e.path then
			-- a rename names both; the same care as for an open's path
			for _, p in ipairs { e.path, e.to } do
				if p:sub(1, 1) == "/" then note(L.change, p, n) end
			end
		elseif (e.kind == "connect" or e.kind == "bind" or e.kind == "send") and INET[e.family] and e.addr then
			note(L.connect, e.addr, n)
		elseif e.kind == "mmap" and e.size then
			local m = L.mmap or { size = 0, n = 0 }
			L.mmap = m
			m.n = m.n + n
			if e.size > m.size then m.size = e.size end
		elseif e.kind == "syscall" or e.kind == "ptrace" or (e.kind == "clone" and e.namespaces) then
			local what = e.kind == "clone" and "clone with namespace flags" or e.syscall
			if e.kind == "syscall" and not refusals[e.syscall] and not base[e.syscall] then
				note(L.calls, e.syscall, n)
			else
				note(L.refused, what, n)
			end
		end
	end
end

-- What a learned profile FILE adds to the strict profile, into L (marked
-- as from --union).  FILE is loaded as every profile is (sbx.profile:
-- checked, no symlink, an empty environment).
local function learn_union(L, file, strict)
	local p, msg = profile.load(file)
	if p == nil then refuse("--union %s: %s", file, reason(msg)) end
	if type(p) ~= "table" or type(p.rules) ~= "table" or type(p.notify) ~= "table" then
		refuse("--union %s: not a learned profile", file)
	end
	local base = strict_allows(strict)
	for _, r in ipairs(p.rules) do
		if r.action == "allow" and r.args == nil and not base[r.call] then
			note(L.calls, r.call, 0, true)
		end
	end
	for _, path in ipairs(p.notify.open or {}) do note(L.open, path, 0, true) end
	for _, path in ipairs(p.notify.change or {}) do note(L.change, path, 0, true) end
	for _, a in ipairs(p.notify.connect or {}) do note(L.connect, a, 0, true) end
	local cap = p.notify.mmap_cap
	if cap and cap > (strict.notify.mmap_cap or 0) and (not L.mmap or cap > L.mmap.size) then
		L.mmap = { size = cap, n = L.mmap and L.mmap.n or 0, union = true }
	elseif cap and L.mmap and cap == L.mmap.size then
		L.mmap.union = true
	end
end

local function sorted_keys(t)
	local k = {}
	for key in pairs(t) do k[#k + 1] = key end
	table.sort(k)
	return k
end

-- where an addition came from, for its comment
local function from(kind, e)
	local s = {}
	if e.n > 0 then s[#s + 1] = ("%s, %d event%s"):format(kind, e.n, e.n == 1 and "" or "s") end
	if e.union then s[#s + 1] = "from --union" end
	return table.concat(s, "; ")
end

-- A Lua string literal on one line: %q, with a newline as \n
local function lit(s)
	return (("%q"):format(s):gsub("\\\n", "\\n"))
end

local function render(L, argv)
	local b = {}
	local function w(s) b[#b + 1] = s end
	w("-- A learned profile, written by `sbxlua learn.lua`: the strict profile and what\n")
	w("-- a run of the program below used (docs/seccomp.md, \"Learning a profile\").\n")
	w("-- Data, not code: loaded in an empty environment like every profile.\n")
	w("-- Run it with: sbxlua run.lua --profile FILE --mode stop PROG ...\n")
	w("-- program: " .. report.escape(table.concat(argv, " ")) .. "\n")
	if next(L.refused) then
		w("-- not allowed (a learned profile never allows what the default profile\n")
		w("-- refuses, nor a namespace):\n")
		for _, k in ipairs(sorted_keys(L.refused)) do
			w("--   " .. report.escape(k) .. ": " .. from("seen", L.refused[k]) .. "\n")
		end
	end
	w("local p = (...).load(\"strict\")\n")
	w("local rules, notify = p.rules, p.notify\n")
	w("\n-- calls the strict lists lack\n")
	for _, k in ipairs(sorted_keys(L.calls)) do
		w(("rules[#rules + 1] = { call = %s, action = \"allow\" } -- %s\n"):format(lit(k),
			from("syscall " .. k, L.calls[k])))
	end
	w("\n-- opens: the paths opened, exactly; a directory's covers what lies under it.\n")
	w("-- The mounts and Landlock still decide what each path reaches.\n")
	w("notify.open = {\n")
	for _, k in ipairs(sorted_keys(L.open)) do
		w(("\t%s, -- %s\n"):format(lit(k), from("open", L.open[k])))
	end
	w("}\n")
	w("\n-- changes: the paths deleted, renamed (both names) or whose attributes\n")
	w("-- changed, exactly, as for opens.\n")
	w("notify.change = {\n")
	for _, k in ipairs(sorted_keys(L.change)) do
		w(("\t%s, -- %s\n"):format(lit(k), from("delete, rename or attribute", L.change[k])))
	end
	w("}\n")
	w("\n-- addresses connected to, bound or sent to (ip:port)\n")
	w("notify.connect = {\n")
	for _, k in ipairs(sorted_keys(L.connect)) do
		w(("\t%s, -- %s\n"):format(lit(k), from("connect, bind or send", L.connect[k])))
	end
	w("}\n")
	if L.mmap then
		w(("\nnotify.mmap_cap = %d -- %s, the largest mapping\n"):format(L.mmap.size,
			from("mmap", L.mmap)))
	end
	w("\nreturn p\n")
	return table.concat(b)
end

local function main(argv)
	local o = parse(argv)
	local out = prepare_output(o)
	local strict, msg = profile.load("strict")
	if strict == nil then refuse("strict profile: %s", reason(msg)) end
	local L = new_learned()
	if o.union then learn_union(L, o.union, strict) end
	-- the strict profile in log mode: every call its lists lack is let
	-- through and recorded; the refusals it names stay refusals
	local filter, ferr = profile.compile(strict, { name_refusals = true })
	if filter == nil then refuse("strict profile: %s", ferr) end
	local _, ntable = profile.notify(strict)
	o.filter, o.profile, o.mode, o.notify = filter, "strict", "log", ntable
	o.stdin = nil -- nothing: a learning run reads no input
	-- the profile on stdout: the program's own output goes to stderr
	if not out then o.stdout = "capture" end

	local spec, info = backend.build(o)
	if not spec then
		-- a refusal of an option the operator typed names that option,
		-- not the program (`--image ...: cannot unpack ...`)
		if info:find("^%-%-") then refuse("%s", info) end
		refuse("%s: %s", o.prog, info)
	end
	local r, rmsg = backend.run(spec, info)
	if not r then refuse("%s", rmsg) end
	if r.stdout then io.stderr:write(r.stdout) end
	local events = report.events(r, info)
	io.stderr:write(report.text(r, info, events, nil, false))
	if (r.events_dropped or 0) > 0 then
		refuse("learn: %d events past the cap: the profile would be incomplete", r.events_dropped)
	end
	learn_events(L, r.events or {}, default_refusals(), strict_allows(strict))
	local prog = { o.prog }
	for _, a in ipairs(o.args or {}) do prog[#prog + 1] = a end
	local text = render(L, prog)
	if not out then
		io.stdout:write(text)
		return 0
	end
	local ok, wmsg = out:write(text, o.force and "replace" or "excl")
	out:close()
	if not ok then refuse("--output %s: %s", o.output, reason(wmsg)) end
	return 0
end

local argv = {}
for i = 1, #arg do argv[i] = arg[i] end
os.exit(main(argv))
