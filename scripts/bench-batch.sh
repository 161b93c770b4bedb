#!/bin/sh
# SPDX-License-Identifier: MIT
# Batch throughput: programs per second for N runs of /bin/true (N distinct
# copies: batch.lua records a program once per content) by
# `sbxlua batch.lua` at -j 1 and -j 2, in the analysis box (the default)
# and in the plain jail (--jail), beside a shell loop over bwrap with
# the standard box's tree and walls as far as bwrap has them; prints each
# and the ratios (targets: -j 2 >= 1.5x the bwrap loop, -j 2 / -j 1 >= 0.9x
# the two bwrap loops' own scaling), and per program the CPU of sbxlua
# (its workers too) beside the box's own, and the whole machine's CPU
# (/proc/stat: every process and the kernel's own threads, which tear
# the namespaces down) beside the bwrap loop's: what bounds a rate on
# this machine's cores;
# then two bwrap loops side by side against one, and two loops of the
# floor (scripts/bench-floor.c, the least kernel work a strict box needs,
# hand-written) against one: how far the kernel's own work for such boxes
# scales on this machine.
#   scripts/bench-batch.sh [N]      (default 200)
# Needs: make, cc, bubblewrap, GNU time (scripts/deps.sh --bench).
set -eu
cd "$(dirname "$0")/.."
n=${1:-200}
for t in bwrap cc /usr/bin/time; do
	command -v $t >/dev/null || { echo "bench: $t missing (scripts/deps.sh --bench)" >&2; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 0755 "$tmp"
cc -O2 -o "$tmp/floor" scripts/bench-floor.c
mkdir "$tmp/progs"
i=1
while [ "$i" -le "$n" ]; do
	f=$(printf '%s/progs/t%04d' "$tmp" "$i")
	cp /bin/true "$f"
	printf '%d' "$i" >>"$f" # a byte past the ELF's end: another sha256, the same program
	i=$((i + 1))
done
./sbxlua -e 'local p = require "sbx.profile"; io.write(p.compile(p.load("default")):export())' >"$tmp/default.bpf"

now() { date +%s.%N; }
# busy: the whole machine's busy CPU in seconds so far (user, nice,
# system, irq, softirq; not idle, iowait or the hypervisor's steal)
hz=$(getconf CLK_TCK)
busy() { awk -v hz="$hz" '/^cpu /{ printf "%.2f", ($2 + $3 + $4 + $7 + $8) / hz }' /proc/stat; }
rate() { echo "$1 $2 $3" | awk '{ printf "%.1f", $1 / ($3 - $2) }'; }

# batch NAME ARGS...: a batch into $tmp/NAME.jsonl, the user+sys CPU of
# sbxlua, its workers and their boxes (every process reaped) in NAME.time
batch() {
	name=$1
	shift
	/usr/bin/time -f "%U %S" -o "$tmp/$name.time" ./sbxlua batch.lua -q "$@" --output "$tmp/$name.jsonl" "$tmp/progs"
}
ta=$(now)
b_ta=$(busy)
batch a1 -j 1
tb=$(now)
b_tb=$(busy)
batch a2 -j 2
t0=$(now)
b_t0=$(busy)
batch j1 --jail -j 1
t1=$(now)
b_t1=$(busy)
batch j2 --jail -j 2
t2=$(now)
b_t2=$(busy)
links="--symlink usr/bin /bin --symlink usr/sbin /sbin --symlink usr/lib /lib --symlink usr/lib64 /lib64"
# bwrap_loop K M: the programs whose number is K modulo M, one after the other
bwrap_loop() {
	j=0
	for f in "$tmp"/progs/*; do
		j=$((j + 1))
		[ $((j % $2)) -eq "$1" ] || continue
		# shellcheck disable=SC2086
		bwrap --unshare-all --die-with-parent --new-session --hostname sbx --ro-bind /usr /usr $links \
			--ro-bind /etc/ld.so.cache /etc/ld.so.cache --proc /proc --ro-bind /proc/sys /proc/sys \
			--dev /dev --tmpfs /tmp --tmpfs /work --ro-bind "$f" /work/prog --chdir /work --cap-drop ALL \
			--clearenv --seccomp 9 /work/prog 9<"$tmp/default.bpf" >/dev/null 2>&1
	done
}
bwrap_loop 0 1
t3=$(now)
b_t3=$(busy)
# the same kernel work two at a time: how far this machine lets boxes scale
bwrap_loop 0 2 &
bwrap_loop 1 2
wait
t4=$(now)
b_t4=$(busy)
# floor_loop M: n/M floor boxes of /bin/true, one after the other
floor_loop() {
	j=0
	while [ "$j" -lt $((n / $1)) ]; do
		"$tmp/floor" /bin/true
		j=$((j + 1))
	done
}
floor_loop 1
t5=$(now)
b_t5=$(busy)
floor_loop 2 &
floor_loop 2
wait
t6=$(now)

for f in a1 a2 j1 j2; do
	l=$(wc -l <"$tmp/$f.jsonl")
	[ "$l" -eq "$n" ] || { echo "bench: $f recorded $l of $n programs" >&2; exit 1; }
done
ra1=$(rate "$n" "$ta" "$tb")
ra2=$(rate "$n" "$tb" "$t0")
r1=$(rate "$n" "$t0" "$t1")
r2=$(rate "$n" "$t1" "$t2")
rb=$(rate "$n" "$t2" "$t3")
rb2=$(rate "$n" "$t3" "$t4")
rf=$(rate "$n" "$t4" "$t5")
rf2=$(rate $((n / 2 * 2)) "$t5" "$t6")
# cpu NAME: per program, ms: sbxlua's own (its workers' too: the whole
# tree less the boxes) and the boxes' own (each record's cgroup CPU)
cat >"$tmp/cpu.lua" <<'LUA'
local cjson = require "cjson"
local t = assert(io.open(arg[1])):read("a")
local u, s = t:match("([%d.]+) ([%d.]+)%s*$")
local box, n = 0, 0
for l in io.lines(arg[2]) do
	local r = cjson.decode(l)
	box, n = box + (r.timings.cpu or 0), n + 1
end
local all = (tonumber(u) + tonumber(s)) / n * 1e3
io.write(("CPU per program: sbxlua %.1f ms, the box %.1f ms"):format(all - box / n * 1e3, box / n * 1e3))
LUA
cpu() { ./sbxlua "$tmp/cpu.lua" "$tmp/$1.time" "$tmp/$1.jsonl"; }
# mcpu FROM TO COUNT: the machine's busy CPU per program between two stamps, ms
mcpu() { echo "$1 $2 $3" | awk '{ printf "%.1f", ($2 - $1) / $3 * 1e3 }'; }
echo "batch -j 1:     $ra1 programs/s (the analysis box; $(cpu a1))"
echo "batch -j 2:     $ra2 programs/s (the analysis box; $(cpu a2))"
echo "batch -j 1:     $r1 programs/s (--jail; $(cpu j1))"
echo "batch -j 2:     $r2 programs/s (--jail; $(cpu j2))"
echo "bwrap loop:     $rb programs/s"
echo "2 bwrap loops:  $rb2 programs/s (side by side)"
echo "floor loop:     $rf boxes/s"
echo "2 floor loops:  $rf2 boxes/s (side by side)"
echo "machine CPU per program, ms: -j 1 $(mcpu "$b_ta" "$b_tb" "$n") and -j 2 $(mcpu "$b_tb" "$b_t0" "$n") (analysis), $(mcpu "$b_t0" "$b_t1" "$n") and $(mcpu "$b_t1" "$b_t2" "$n") (--jail), bwrap loop $(mcpu "$b_t2" "$b_t3" "$n"), floor $(mcpu "$b_t4" "$b_t5" "$n")"
# the most -j 2 could give were every core busy all the time: the cores
# over the machine's CPU per program, against the bwrap loop
echo "$(nproc) $(mcpu "$b_tb" "$b_t0" "$n") $(mcpu "$b_t1" "$b_t2" "$n") $rb" | awk '{
	printf "bound at -j 2 (cores / machine CPU per program): %.2fx analysis, %.2fx jail of the bwrap loop\n", $1 / $2 * 1e3 / $4, $1 / $3 * 1e3 / $4 }'
echo "$ra1 $r1 $ra2 $r2" | awk '{ printf "ratio analysis / jail:       %.2fx at -j 1, %.2fx at -j 2\n", $1 / $2, $3 / $4 }'
echo "$ra1 $ra2 $r1 $r2 $rb $rb2 $rf $rf2" | awk '{
	printf "ratio -j 2 / bwrap loop:     %.2fx analysis, %.2fx jail (target 1.5x)\n", $2 / $5, $4 / $5
	printf "ratio -j 2 / -j 1:           %.2fx analysis, %.2fx jail\n", $2 / $1, $4 / $3
	printf "ratio 2 bwrap loops / one:   %.2fx (the same kernel work\x27s own scaling here)\n", $6 / $5
	printf "scaling / bwrap\x27s scaling:   %.2f analysis, %.2f jail (target 0.9)\n", ($2 / $1) / ($6 / $5), ($4 / $3) / ($6 / $5)
	printf "ratio 2 floor loops / one:   %.2fx (the least kernel work\x27s own scaling here)\n", $8 / $7
}'
