#!/bin/sh
# SPDX-License-Identifier: MIT
# Extended regular expressions over a log file the script writes.
set -eu
log=/work/service.log
cat > "$log" <<'EOF'
2024-01-05 10:00:01 INFO  start pid=101
2024-01-05 10:00:02 WARN  slow request 1200ms
2024-01-05 10:00:03 ERROR failed to open cache.db
2024-01-05 10:00:04 INFO  request 35ms
2024-01-05 10:00:05 ERROR timeout after 5000ms
EOF
echo "errors: $(grep -c ' ERROR ' "$log")"
grep -E 'WARN|ERROR' "$log" | cut -c21-
grep -oE '[0-9]+ms' "$log" | tr -d 'ms' | sort -n | tail -n 1
grep -v INFO "$log" | wc -l
