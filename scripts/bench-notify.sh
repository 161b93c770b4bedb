#!/bin/sh
# SPDX-License-Identifier: MIT
# The explain channel's cost per call: ns per openat+close pair, bare, in a
# box whose profile notifies openat (answered CONTINUE, log mode), in a box
# without a filter, and under strace -f (and strace -f --seccomp-bpf).
# Each is the median of five runs of build/tests/openloop, which measures
# inside the program (start-up not counted).
#   scripts/bench-notify.sh [pairs]
# Needs: make, strace (scripts/deps.sh).
set -eu
cd "$(dirname "$0")/.."
n=${1:-20000}
prog=build/tests/openloop
command -v strace >/dev/null || { echo "bench: strace missing (scripts/deps.sh)" >&2; exit 1; }
median() { # command...: the median of five runs' outputs
	for _ in 1 2 3 4 5; do "$@"; done | sort -n | sed -n 3p
}
bare=$(median $prog "$n")
box=$(median ./sbxlua run.lua --profile none $prog "$n" 2>/dev/null)
notified=$(median ./sbxlua run.lua --profile tests/profiles/notify-open.lua $prog "$n" 2>/dev/null)
# the analysis box's profile: every open notified, and each call checked
# against the default profile's named refusals
watch=$(median ./sbxlua run.lua --profile watch $prog "$n" 2>/dev/null)
st=$(median strace -f -qq -o /dev/null $prog "$n")
stb=$(median strace -f -qq --seccomp-bpf -e trace=openat -o /dev/null $prog "$n")
lua5.4 - "$bare" "$box" "$notified" "$st" "$stb" "$watch" <<'LUA'
local bare, box, notified, st, stb, watch = tonumber(arg[1]), tonumber(arg[2]), tonumber(arg[3]),
	tonumber(arg[4]), tonumber(arg[5]), tonumber(arg[6])
print(("openat+close, ns per pair (median of 5):"))
print(("  bare                         %8d"):format(bare))
print(("  box, no filter               %8d"):format(box))
print(("  box, openat notified         %8d  (+%d)"):format(notified, notified - box))
print(("  box, watch profile           %8d  (+%d)"):format(watch, watch - box))
print(("  strace -f                    %8d  (+%d)"):format(st, st - bare))
print(("  strace -f --seccomp-bpf      %8d  (+%d)"):format(stb, stb - bare))
print(("  notified cost / strace -f's: %.2f"):format((notified - box) / (st - bare)))
print(("  watch cost / strace -f's:    %.2f"):format((watch - box) / (st - bare)))
LUA
