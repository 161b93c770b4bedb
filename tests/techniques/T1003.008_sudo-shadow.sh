#!/bin/sh
# SPDX-License-Identifier: MIT
# Reads the password hashes as root through sudo.
# Depends on the sudo stand-in for the sudo exec; without it the fallback
# shows the technique.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
sudo -n cat /etc/shadow 2>/dev/null || cat /etc/shadow 2>/dev/null
exit 0
