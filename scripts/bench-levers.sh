#!/bin/sh
# SPDX-License-Identifier: MIT
# One lever of the start-up against another, side by side: `run.lua
# /bin/true` under each sbxlua executable named (each beside lua/ and
# build/luac, as ./sbxlua is: copy a variant to the tree's top, e.g.
# ./sbxlua-static), with bubblewrap and the floor's BPF and the floor
# itself, in ROUNDS hyperfine runs of RUNS runs each (so that a host whose
# load moves shifts every command alike); then, for each command, the
# median over the rounds of its median and of its ratio to bubblewrap's
# median in the same round, and the same of its CPU time (user and
# system, children included: hyperfine's means), which a loaded host
# inflates less than the wall time.
#   scripts/bench-levers.sh ROUNDS RUNS ./sbxlua ./sbxlua-static ...
# Needs: hyperfine, bwrap, cc (scripts/deps.sh --bench).
set -eu
cd "$(dirname "$0")/.."
rounds=${1:?rounds}
runs=${2:?runs}
shift 2
[ $# -gt 0 ] || { echo "usage: scripts/bench-levers.sh ROUNDS RUNS EXE..." >&2; exit 2; }
. scripts/bench-floor.sh
set -- "$@" -- -n "bwrap floor BPF" "sh -c '$bw_floor 9<$tmp/floor.bpf'" -n "floor" "$tmp/floor /bin/true"
# each executable once, as every later run finds the profile's cache
while [ "$1" != "--" ]; do
	"$1" run.lua /bin/true 2>/dev/null
	set -- "$@" -n "$1" "$1 run.lua /bin/true"
	shift
done
shift
i=0
while [ "$i" -lt "$rounds" ]; do
	i=$((i + 1))
	hyperfine -N --warmup 2 --runs "$runs" --export-json "$tmp/r$i.json" "$@" >/dev/null
done
lua5.4 - "$tmp" "$rounds" "$runs" <<'LUA'
local cjson = require "cjson"
local med, ratio, cpu, cpur, order = {}, {}, {}, {}, {}
for i = 1, tonumber(arg[2]) do
	local f = assert(io.open(("%s/r%d.json"):format(arg[1], i)))
	local res = cjson.decode(f:read("a")).results
	f:close()
	local bw, bwcpu
	for _, x in ipairs(res) do
		if x.command == "bwrap floor BPF" then bw, bwcpu = x.median, x.user + x.system end
	end
	for _, x in ipairs(res) do
		local c = x.command
		if not med[c] then med[c], ratio[c], cpu[c], cpur[c], order[#order + 1] = {}, {}, {}, {}, c end
		table.insert(med[c], x.median)
		table.insert(ratio[c], x.median / bw)
		table.insert(cpu[c], x.user + x.system)
		table.insert(cpur[c], (x.user + x.system) / bwcpu)
	end
end
local function median(t)
	table.sort(t)
	return t[(#t + 1) // 2]
end
print(("%s rounds of %s runs each; load average at the end %s"):format(arg[2], arg[3],
	io.open("/proc/loadavg"):read("l")))
for _, c in ipairs(order) do
	local r = {}
	for k, v in ipairs(ratio[c]) do r[k] = ("%.2f"):format(v) end
	print(("%-20s median %8.2f ms  /bwrap %.2f   CPU %7.2f ms  /bwrap %.2f   (rounds /bwrap: %s)"):format(c,
		median(med[c]) * 1e3, median(ratio[c]), median(cpu[c]) * 1e3, median(cpur[c]), table.concat(r, " ")))
end
LUA
