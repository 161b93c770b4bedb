#!/bin/sh
# SPDX-License-Identifier: MIT
# What may this user run as root: sudo's own list, and the rules' files.
# Depends on the sudo stand-in for the sudo exec; the read of the rules
# shows either way.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
sudo -n -l 2>/dev/null
cat /etc/sudoers 2>/dev/null
ls /etc/sudoers.d 2>/dev/null
exit 0
