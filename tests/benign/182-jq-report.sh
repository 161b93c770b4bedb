#!/bin/sh
# SPDX-License-Identifier: MIT
# A report from JSON with jq.
set -eu
command -v jq > /dev/null || exit 0
printf '{"items":[{"name":"a","size":3},{"name":"b","size":5}]}' > /work/r.json
jq -r '.items[] | "\(.name) \(.size)"' /work/r.json
jq '[.items[].size] | add' /work/r.json
