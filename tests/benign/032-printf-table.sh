#!/bin/sh
# SPDX-License-Identifier: MIT
# Print an aligned table with a header and a total.
set -eu
printf '%-10s %8s %8s\n' item qty price
printf '%-10s %8s %8s\n' ---------- -------- --------
total=0
while read -r item qty cents; do
	printf '%-10s %8d %5d.%02d\n' "$item" "$qty" $((cents / 100)) $((cents % 100))
	total=$((total + qty * cents))
done <<'EOF'
bolts 100 5
nuts 250 3
washers 75 2
EOF
printf '%-10s %17d.%02d\n' total $((total / 100)) $((total % 100))
