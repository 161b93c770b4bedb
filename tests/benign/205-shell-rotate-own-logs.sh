#!/bin/sh
# SPDX-License-Identifier: MIT
# Rotates its own log files in the work area: numbered copies, the oldest removed.
set -eu
d=/work/logs
mkdir -p "$d"
echo today > "$d/app.log"
for n in 3 2 1; do [ -f "$d/app.log.$n" ] && mv "$d/app.log.$n" "$d/app.log.$((n + 1))"; done
mv "$d/app.log" "$d/app.log.1"
: > "$d/app.log"
rm -f "$d/app.log.4"
ls "$d"
