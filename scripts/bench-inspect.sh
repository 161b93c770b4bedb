#!/bin/sh
# SPDX-License-Identifier: MIT
# Content inspection's cost (docs/performance.md, "Content inspection"):
# a box writes N files of one kind into /tmp, and the run is timed three
# ways: the supervisor's own CPU (sbxlua's process: os.clock, its children
# not counted), the inspection worker's CPU on the run's files (the run's
# inspect_cpu), and the box's own CPU; per inspected file.  Kinds: newlines
# (64 KiB of '\n', libmagic's slowest text), elf (/bin/true), random
# (64 KiB from /dev/urandom).  Not a test: it prints, it asserts nothing.
#   scripts/bench-inspect.sh [N...]      (default 16 64)
set -eu
cd "$(dirname "$0")/.."
SBX=${SBX:-./sbxlua}
[ -x "$SBX" ] || { echo "bench: build sbxlua first (make)" >&2; exit 1; }
printf '%-9s %5s %6s %8s %12s %12s %12s %10s\n' kind files typed skipped \
	"super ms/f" "worker ms/f" "box ms/f" "super/box"
for n in ${*:-16 64}; do
	for kind in newlines elf random; do
		case $kind in
		newlines) make="head -c 65536 /dev/zero | tr '\\0' '\\n'" ;;
		elf) make="cat /bin/true" ;;
		random) make="head -c 65536 /dev/urandom" ;;
		esac
		N=$n KIND=$kind MAKE=$make "$SBX" -e '
local sbx = require "sbx"
local n, kind = tonumber(os.getenv("N")), os.getenv("KIND")
local script = ("i=0; while [ $i -lt %d ]; do %s > /tmp/f$i; i=$((i+1)); done"):format(n, os.getenv("MAKE"))
local spec = { root = {}, mounts = sbx.minimal_mounts(), argv = { "/bin/sh", "-c", script },
	env = { PATH = "/usr/bin:/bin" }, cwd = "/tmp", wall = 600,
	capture = { places = { "/tmp" } } }
local t0 = os.clock()
local r = assert(sbx.run(spec))
local super = os.clock() - t0
local typed = 0
for _, f in ipairs(r.files or {}) do if f.filetype then typed = typed + 1 end end
local function per(s) return s * 1000 / n end
print(("%-9s %5d %6d %8d %12.2f %12.2f %12.2f %10.2f"):format(kind, n, typed, r.inspect_skipped,
	per(super), per(r.inspect_cpu), per(r.cpu or 0), super / math.max(r.cpu or 0, 1e-6)))
'
	done
done
