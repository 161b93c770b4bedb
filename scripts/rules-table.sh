#!/bin/sh
# SPDX-License-Identifier: MIT
# Rewrites docs/batch.md's coverage table (between its rules-table
# markers) from the rules themselves (scripts/rules-table.lua).
set -eu
cd "$(dirname "$0")/.."
table=$(mktemp)
trap 'rm -f "$table" "$table.md"' EXIT
./sbxlua scripts/rules-table.lua >"$table"
awk -v t="$table" '
	/^<!-- rules-table -->$/ { print; while ((getline l < t) > 0) print l; skip = 1; next }
	/^<!-- \/rules-table -->$/ { skip = 0 }
	!skip' docs/batch.md >"$table.md"
cat "$table.md" >docs/batch.md
