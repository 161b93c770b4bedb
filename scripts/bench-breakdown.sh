#!/bin/sh
# Where the start-up of `sbxlua run.lua /bin/true` goes: N runs with
# SBXLUA_STAMPS set (core/common/stamp.h), then the median of each stretch
# between two stamps, in milliseconds.
#   scripts/bench-breakdown.sh [runs] [run.lua options...]
set -eu
cd "$(dirname "$0")/.."
runs=${1:-200}
[ $# -gt 0 ] && shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the profile's program cached once, as every later run finds it
./sbxlua run.lua "$@" /bin/true 2>/dev/null
i=0
while [ "$i" -lt "$runs" ]; do
	SBXLUA_STAMPS="$tmp/stamps" ./sbxlua run.lua "$@" /bin/true 2>/dev/null
	i=$((i + 1))
done
lua5.4 - "$tmp/stamps" "$runs" <<'LUA'
local rows = {}
for line in io.lines(arg[1]) do
	local r = {}
	for k, v in line:gmatch("(%w+)=([%d.]+)") do r[k] = tonumber(v) end
	rows[#rows + 1] = r
end
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
