#!/bin/sh
# SPDX-License-Identifier: MIT
# An administrator's report of the accounts: login shells and home directories.
set -eu
awk -F: '$3 >= 1000 && $3 < 65534 { n++ } END { print n + 0, "human accounts" }' /etc/passwd
cut -d: -f7 /etc/passwd | sort | uniq -c | sort -rn | head -3
