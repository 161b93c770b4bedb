#!/bin/sh
# SPDX-License-Identifier: MIT
# Checks /etc/fstab for entries without a pass number.
set -eu
[ -r /etc/fstab ] || exit 0
grep -v '^[[:space:]]*#' /etc/fstab | awk 'NF >= 4 && NF < 6 { print "no pass:", $2 }'
exit 0
