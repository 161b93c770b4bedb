#!/bin/sh
# SPDX-License-Identifier: MIT
# Covers its tracks in the kernel's log: reads the ring buffer for what an
# exploit left there, then clears it and turns the console's messages off
# (syslog(2) actions 5 and 6, through dmesg).
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
dmesg 2>/dev/null | tail -n 5
dmesg -C 2>/dev/null
dmesg -D 2>/dev/null
exit 0
