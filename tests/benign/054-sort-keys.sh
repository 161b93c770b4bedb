#!/bin/sh
# SPDX-License-Identifier: MIT
set -eu
cat > /tmp/scores.txt <<'EOF'
carol,88,2021
alice,95,2020
bob,72,2022
dave,88,2019
EOF
echo "by score, then name:"
sort -t, -k2,2nr -k1,1 /tmp/scores.txt
echo "by year:"
sort -t, -k3,3n /tmp/scores.txt | cut -d, -f1,3
