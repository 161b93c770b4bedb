#!/bin/sh
# SPDX-License-Identifier: MIT
# Turn a table into JSON with awk and check it with python3 -m json.tool.
set -eu
cat > /tmp/hosts.tsv <<'EOF'
web1	10	up
web2	20	down
db1	30	up
EOF
awk -F'\t' 'BEGIN { printf "[" }
{ printf "%s{\"name\": \"%s\", \"weight\": %d, \"state\": \"%s\"}", (NR > 1 ? ", " : ""), $1, $2, $3 }
END { print "]" }' /tmp/hosts.tsv > /tmp/hosts.json
python3 -m json.tool /tmp/hosts.json
