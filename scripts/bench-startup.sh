#!/bin/sh
# SPDX-License-Identifier: MIT
# Start-up cost of a box running /bin/true, side by side in one hyperfine
# run: the standard box (`sbxlua run.lua`), the floor (scripts/bench-floor.c,
# the least kernel work a strict box needs, hand-written), bubblewrap with
# the floor's tree and the floor's BPF, bubblewrap with the standard box's
# tree and its BPF, sbxlua's minimal box, /bin/true itself (and firejail
# when installed); then 64 boxes one after the other and through run_many.
# Prints the medians and the ratios.
#   scripts/bench-startup.sh [runs]
# Needs: make, scripts/deps.sh --bench (hyperfine, bubblewrap, firejail).
set -eu
cd "$(dirname "$0")/.."
runs=${1:-200}
. scripts/bench-floor.sh
# the default seccomp profile as BPF, for bwrap's --seccomp
./sbxlua -e 'local p = require "sbx.profile"; io.write(p.compile(p.load("default")):export())' >"$tmp/default.bpf"
# the profile's program in the cache, as every later run finds it
./sbxlua run.lua /bin/true 2>/dev/null

bw_min="bwrap --unshare-all --ro-bind /usr /usr $links --proc /proc --dev /dev --tmpfs /tmp --cap-drop ALL /bin/true"
# the standard box's tree and walls, as far as bwrap has them
bw_std="bwrap --unshare-all --die-with-parent --new-session --hostname sbx --ro-bind /usr /usr $links \
--ro-bind /etc/ld.so.cache /etc/ld.so.cache --proc /proc --ro-bind /proc/sys /proc/sys --dev /dev \
--tmpfs /tmp --tmpfs /work --chdir /work --cap-drop ALL --clearenv --seccomp 9 /bin/true"

set -- --warmup 10 --runs "$runs" --export-json "$tmp/r.json" -N \
	-n "sbxlua run.lua" "./sbxlua run.lua /bin/true" \
	-n "floor" "$tmp/floor /bin/true" \
	-n "bwrap floor BPF" "sh -c '$bw_floor 9<$tmp/floor.bpf'" \
	-n "bwrap standard" "sh -c '$bw_std 9<$tmp/default.bpf'" \
	-n "sbxlua minimal" "./sbxlua scripts/bench-minimal.lua" \
	-n "bwrap minimal" "$bw_min" \
	-n "/bin/true" "/bin/true"
if command -v firejail >/dev/null; then
	set -- "$@" -n "firejail" "firejail --quiet --noprofile --private --net=none /bin/true"
fi
hyperfine "$@" >&2
hyperfine --warmup 1 --runs "$(( runs / 20 > 5 ? runs / 20 : 5 ))" --export-json "$tmp/m.json" -N \
	-n "64 sequential" "./sbxlua scripts/bench-many.lua seq 64" \
	-n "64 run_many" "./sbxlua scripts/bench-many.lua many 64" >&2
lua5.4 - "$tmp/r.json" "$tmp/m.json" <<'LUA'
local cjson = require "cjson"
local t = {}
for i = 1, 2 do
	local f = assert(io.open(arg[i]))
	for _, x in ipairs(cjson.decode(f:read("a")).results) do t[x.command] = x.median end
	f:close()
end
local function row(a, b)
	if t[a] and t[b] then
		print(("%-16s %8.2f ms   %-16s %8.2f ms   ratio %.2f"):format(a, t[a] * 1e3, b, t[b] * 1e3, t[a] / t[b]))
	end
end
print("medians:")
row("sbxlua run.lua", "floor")
row("sbxlua run.lua", "bwrap floor BPF")
row("sbxlua run.lua", "bwrap standard")
row("bwrap floor BPF", "floor")
row("sbxlua minimal", "floor")
row("sbxlua minimal", "bwrap minimal")
row("floor", "/bin/true")
row("sbxlua run.lua", "firejail")
row("64 sequential", "64 run_many")
LUA
