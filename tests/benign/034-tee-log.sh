#!/bin/sh
# SPDX-License-Identifier: MIT
set -eu
log=/work/build.log
: > "$log"
echo "step 1: configure" | tee -a "$log"
echo "step 2: build" | tee -a "$log"
echo "step 3: done" | tee -a "$log" > /dev/null
echo "log has $(wc -l < "$log") lines"
