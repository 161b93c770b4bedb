#!/bin/sh
# Start-up cost of a box running /bin/true, side by side with bubblewrap
# (and firejail when installed), in one hyperfine run; prints the ratios.
#   scripts/bench-startup.sh [runs]
# Needs: make, scripts/deps.sh --bench (hyperfine, bubblewrap, firejail).
set -eu
cd "$(dirname "$0")/.."
runs=${1:-200}
for t in hyperfine bwrap; do
	command -v $t >/dev/null || { echo "bench: $t missing (scripts/deps.sh --bench)" >&2; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the default seccomp profile as BPF, for bwrap's --seccomp
./sbxlua -e 'local p = require "sbx.profile"; io.write(p.compile(p.load("default")):export())' >"$tmp/default.bpf"

links="--symlink usr/bin /bin --symlink usr/sbin /sbin --symlink usr/lib /lib --symlink usr/lib64 /lib64"
bw_min="bwrap --unshare-all --ro-bind /usr /usr $links --proc /proc --dev /dev --tmpfs /tmp --cap-drop ALL /bin/true"
# the standard box's tree and walls, as far as bwrap has them
bw_std="bwrap --unshare-all --die-with-parent --new-session --hostname sbx --ro-bind /usr /usr $links \
--ro-bind /etc/ld.so.cache /etc/ld.so.cache --proc /proc --ro-bind /proc/sys /proc/sys --dev /dev \
--tmpfs /tmp --tmpfs /work --chdir /work --cap-drop ALL --clearenv --seccomp 9 /bin/true"

set -- --warmup 10 --runs "$runs" --export-json "$tmp/r.json" -N \
	-n "sbxlua minimal" "./sbxlua scripts/bench-minimal.lua" \
	-n "bwrap minimal" "$bw_min" \
	-n "sbxlua run.lua" "./sbxlua run.lua /bin/true" \
	-n "bwrap standard" "sh -c '$bw_std 9<$tmp/default.bpf'"
if command -v firejail >/dev/null; then
	set -- "$@" -n "firejail" "firejail --quiet --noprofile --private --net=none /bin/true"
fi
hyperfine "$@" >&2
lua5.4 - "$tmp/r.json" <<'LUA'
local cjson = require "cjson"
local f = assert(io.open(arg[1]))
local r = cjson.decode(f:read("a"))
f:close()
local t = {}
for _, x in ipairs(r.results) do t[x.command] = x.median end
local function row(a, b)
	if t[a] and t[b] then
		print(("%-16s %7.2f ms   %-16s %7.2f ms   ratio %.2f"):format(a, t[a] * 1e3, b, t[b] * 1e3, t[a] / t[b]))
	end
end
print("medians:")
row("sbxlua minimal", "bwrap minimal")
row("sbxlua run.lua", "bwrap standard")
row("sbxlua run.lua", "firejail")
LUA
