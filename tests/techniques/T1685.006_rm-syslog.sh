#!/bin/sh
# SPDX-License-Identifier: MIT
# Wipes the system log after the break-in: removes it, and empties it where
# the removal is refused.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
rm -f /var/log/syslog 2>/dev/null
cat /dev/null > /var/log/syslog 2>/dev/null
exit 0
