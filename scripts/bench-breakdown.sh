#!/bin/sh
# SPDX-License-Identifier: MIT
# Where the start-up of `sbxlua run.lua /bin/true` goes: N runs with
# SBXLUA_STAMPS set (core/common/stamp.h), then the median of each stretch
# between two stamps, in milliseconds; then the Lua stretch by part: N/4
# runs of run.lua under a wrapper that takes os.clock (CPU) around each
# module's loading and the pipeline's steps, and the median of each.
#   scripts/bench-breakdown.sh [runs] [run.lua options...]
set -eu
cd "$(dirname "$0")/.."
runs=${1:-200}
[ $# -gt 0 ] && shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Lua run before each report below: the file arg[1]'s lines of name=number
# pairs as the global rows, one table a line
ROWS='rows = {}
for line in io.lines(arg[1]) do
	local r = {}
	for k, v in line:gmatch("([%w_]+)=([%d.]+)") do r[k] = tonumber(v) end
	rows[#rows + 1] = r
end'
# the profile's program cached once, as every later run finds it
./sbxlua run.lua "$@" /bin/true 2>/dev/null
i=0
while [ "$i" -lt "$runs" ]; do
	SBXLUA_STAMPS="$tmp/stamps" ./sbxlua run.lua "$@" /bin/true 2>/dev/null
	i=$((i + 1))
done
lua5.4 -e "$ROWS" - "$tmp/stamps" "$runs" <<'LUA'
local function median(a, b)
	local d = {}
	for _, r in ipairs(rows) do
		if r[a] and r[b] then d[#d + 1] = (r[b] - r[a]) / 1e3 end
	end
	if #d == 0 then return nil end
	table.sort(d)
	return d[(#d + 1) // 2], #d
end
local function row(label, a, b, indent)
	local m, n = median(a, b)
	if m then
		print(("%s%-44s %7.2f ms%s"):format(indent and "    " or "", label, m,
			n < #rows and (" (%d of %d runs)"):format(n, #rows) or ""))
	end
end
print(("start-up breakdown, median of %d runs of sbxlua run.lua /bin/true:"):format(#rows))
row("main to clone", "main", "clone")
row("interpreter and sbx.core loaded", "main", "core", true)
row("Lua modules, options, profile, plan", "core", "start", true)
row("seccomp compile (on a cache miss)", "filter0", "filter1", true)
row("cgroup of the box", "cgroup0", "cgroup1", true)
row("clone to the step's execve", "clone", "execve")
row("clone3 (until init runs)", "clone", "child", true)
row("namespaces and id maps (until init has its ids)", "child", "ids", true)
row("sysctls, meters", "ids", "tree0", true)
row("mounts (the whole tree, pivot, read-only)", "tree0", "tree1", true)
row("of which /proc", "proc0", "proc1", true)
row("hostname, lo, rlimits, fork of the command", "tree1", "step", true)
row("session, cwd, capabilities, no_new_privs", "step", "landlock0", true)
row("Landlock", "landlock0", "landlock1", true)
row("probe", "landlock1", "probe1", true)
row("filter load", "probe1", "execve", true)
row("execve to the program's exit (seen)", "execve", "ended")
row("exit to sbxlua's exit", "ended", "exit")
row("collect the box (probe, procs, cgroup)", "ended", "finish", true)
row("report, teardown, exit", "finish", "exit", true)
row("main to exit", "main", "exit")
LUA

# ---- the Lua stretch by part (CPU) ----
cat >"$tmp/phases.lua" <<'LUA'
local clock, out = os.clock, arg[1]
local t, stack, real_require = { modules = 0 }, {}, require
-- each module's own loading, without the modules it requires
require = function(name) -- luacheck: ignore
	if package.loaded[name] then return package.loaded[name] end
	local t0 = clock()
	stack[#stack + 1] = 0
	local m = real_require(name)
	local dt, inner = clock() - t0, table.remove(stack)
	if #stack > 0 then stack[#stack] = stack[#stack] + dt end
	t.modules = t.modules + dt - inner
	return m
end
local function wrap(mod, name, label)
	local m = require(mod)
	local f = m[name]
	m[name] = function(...)
		local t0 = clock()
		local r = table.pack(f(...))
		t[label] = (t[label] or 0) + clock() - t0
		return table.unpack(r, 1, r.n)
	end
end
local t0 = clock()
wrap("sbx.core", "uid_users", "host_id_scan")
wrap("sbx.core", "find_sockets", "socket_scan")
wrap("sbx.core", "filter_bpf", "filter_bpf")
wrap("sbx.options", "parse", "options")
wrap("sbx.profile", "filter", "profile_filter")
wrap("sbx.stdbox", "build", "stdbox_build")
wrap("sbx.backend", "run", "box_run")
wrap("sbx.pipeline", "collect", "collect")
wrap("sbx.report", "text", "report_text")
local exit = os.exit
os.exit = function(...) -- luacheck: ignore
	t.total = clock() - t0
	local f = assert(io.open(out, "a"))
	for k, v in pairs(t) do f:write(k, "=", ("%.4f"):format(v * 1e3), " ") end
	f:write("\n")
	f:close()
	exit(...)
end
table.remove(arg, 1)
arg[0] = package.loaded["sbx.config"].luadir .. "/run.lua"
assert(loadfile(arg[0]))(table.unpack(arg))
LUA
i=0
while [ "$i" -lt $(( runs / 4 > 5 ? runs / 4 : 5 )) ]; do
	./sbxlua "$tmp/phases.lua" "$tmp/phases" "$@" /bin/true 2>/dev/null
	i=$((i + 1))
done
lua5.4 -e "$ROWS" - "$tmp/phases" <<'LUA'
local function median(k)
	local d = {}
	for _, r in ipairs(rows) do d[#d + 1] = r[k] or 0 end
	table.sort(d)
	return d[(#d + 1) // 2]
end
print(("the Lua of run.lua by part, CPU (os.clock), median of %d runs:"):format(#rows))
for _, p in ipairs {
	{ "modules", "loading the modules (each without those it requires)" },
	{ "options", "options parsed" },
	{ "profile_filter", "the profile's filter (sbx.profile.filter)" },
	{ "filter_bpf", "of which the cached program rebuilt (core.filter_bpf)" },
	{ "stdbox_build", "the tree and spec (sbx.stdbox.build)" },
	{ "host_id_scan", "of which the host-id scan (core.uid_users)" },
	{ "socket_scan", "the binds' socket scan (core.find_sockets)" },
	{ "box_run", "the box (sbx.backend.run: clone to collected)" },
	{ "collect", "after the box (sbx.pipeline.collect)" },
	{ "report_text", "the report's text" },
	{ "total", "the whole run, CPU of sbxlua (not of the box)" },
} do
	print(("    %-56s %7.2f ms"):format(p[2], median(p[1])))
end
LUA
