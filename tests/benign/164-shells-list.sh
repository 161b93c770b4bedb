#!/bin/sh
# SPDX-License-Identifier: MIT
# Which login shells the system allows, and whether each exists.
set -eu
grep -v '^#' /etc/shells | while read -r s; do
	[ -x "$s" ] && echo "ok $s" || echo "missing $s"
done
