#!/bin/sh
# SPDX-License-Identifier: MIT
# Compare gzip's compression levels on a generated file.
set -eu
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
awk 'BEGIN { for (i = 0; i < 20000; i++) printf "%d,%s\n", i, (i % 7 ? "even-ish" : "seventh") }' > "$d/data.csv"
for level in 1 6 9; do
	printf 'level %d: %d bytes\n' "$level" "$(gzip -c -"$level" "$d/data.csv" | wc -c)"
done
