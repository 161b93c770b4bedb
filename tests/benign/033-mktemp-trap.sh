#!/bin/sh
# SPDX-License-Identifier: MIT
# A temporary file removed by a trap whatever happens.
set -eu
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
seq 1 50 | sort -rn > "$tmp"
echo "first: $(head -n 1 "$tmp"), last: $(tail -n 1 "$tmp")"
