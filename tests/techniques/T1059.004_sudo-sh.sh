#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs its commands through a root shell: `sudo sh -c` (sudo is a stand-in
# on hosts without it), falling back to the user's own shell.
# Depends on the sudo stand-in for the sudo exec; the shell runs either way.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
sudo -n sh -c 'id; cat /etc/hostname' 2>/dev/null || sh -c 'id; cat /etc/hostname'
exit 0
