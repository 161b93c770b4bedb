#!/bin/sh
# SPDX-License-Identifier: MIT
# make check-stress: the whole suite (scripts/test.sh, both privileges) run
# twice at the same time, beside one CPU-bound process per core, so that a
# test that races the machine's speed shows up.  Prints each run's failures
# and its total, then the sum:  N passed, N failed, N skipped
# STRESS_RUNS (default 2) suites run at once; STRESS_LOAD (default: the
# number of cores) busy processes beside them.
set -u
cd "$(dirname "$0")/.."
runs=${STRESS_RUNS:-2}
load=${STRESS_LOAD:-$(nproc)}
log=$(mktemp -d /tmp/sbxlua-stress.XXXXXX)
busy=""
cleanup() {
	# shellcheck disable=SC2086
	[ -n "$busy" ] && kill $busy 2>/dev/null
	rm -rf "$log"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
i=0
while [ "$i" -lt "$load" ]; do
	sh -c 'while :; do :; done' &
	busy="$busy $!"
	i=$((i + 1))
done
pids=""
i=0
while [ "$i" -lt "$runs" ]; do
	scripts/test.sh >"$log/run$i" 2>&1 &
	pids="$pids $!"
	i=$((i + 1))
done
for p in $pids; do wait "$p"; done
passed=0 failed=0 skipped=0
i=0
while [ "$i" -lt "$runs" ]; do
	# each failure with its diagnostic lines
	awk '/^\[[a-z]+\] not ok|counted as one failure/ { show = 1; print; next }
		show && /^\[[a-z]+\] #/ { print; next } { show = 0 }' "$log/run$i" |
		sed "s/^/[run $i] /"
	last=$(tail -n 1 "$log/run$i")
	echo "[run $i] $last"
	set -- $(echo "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\1 \2 \3/p')
	if [ $# -eq 3 ]; then
		passed=$((passed + $1)) failed=$((failed + $2)) skipped=$((skipped + $3))
	else
		echo "[run $i] no total line: counted as one failure"
		failed=$((failed + 1))
	fi
	i=$((i + 1))
done
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
