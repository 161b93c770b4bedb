#!/bin/sh
# SPDX-License-Identifier: MIT
# The password ageing defaults, read from /etc/login.defs.
set -eu
[ -r /etc/login.defs ] || exit 0
grep -E '^(PASS_MAX_DAYS|PASS_MIN_DAYS|UID_MIN|UMASK)' /etc/login.defs || true
