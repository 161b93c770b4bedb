#!/bin/sh
# SPDX-License-Identifier: MIT
set -eu
echo "today: $(date +%Y-%m-%d)"
echo "utc:   $(date -u '+%Y-%m-%dT%H:%M:%SZ')"
echo "epoch 0: $(date -u -d @0 '+%A %d %B %Y')"
echo "week: $(date +%V), day of year: $(date +%j)"
