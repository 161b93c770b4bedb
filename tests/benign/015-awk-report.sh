#!/bin/sh
# SPDX-License-Identifier: MIT
# Sum sales by region from a CSV file with awk.
set -eu
cat > sales.csv <<'EOF'
region,item,amount
north,widget,12.50
south,widget,8.00
north,gadget,30.25
east,widget,4.75
south,gadget,19.99
EOF
awk -F, 'NR > 1 { total[$1] += $3; n[$1]++ }
END { for (r in total) printf "%-6s %3d %8.2f\n", r, n[r], total[r] }' sales.csv | sort
awk -F, 'NR > 1 { s += $3 } END { printf "grand total %.2f\n", s }' sales.csv
