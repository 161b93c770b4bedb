#!/bin/sh
# SPDX-License-Identifier: MIT
# Compress several log files, two at a time.
set -eu
d=/work/logs
mkdir -p "$d"
for n in 1 2 3 4 5 6; do seq 1 $((n * 200)) > "$d/app-$n.log"; done
find "$d" -name '*.log' -print0 | xargs -0 -P 2 -n 2 gzip
ls "$d" | sort
zcat "$d/app-3.log.gz" | tail -n 1
