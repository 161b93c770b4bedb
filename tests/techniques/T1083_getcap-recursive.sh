#!/bin/sh
# SPDX-License-Identifier: MIT
# Walks the whole file system for programs with file capabilities (a
# python with cap_setuid is a way to root).
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
timeout 2 getcap -r / 2>/dev/null | head -n 20
exit 0
