#!/bin/sh
# SPDX-License-Identifier: MIT
# Hiding processes from other users: /proc is remounted so that each user
# sees only their own, which also hides a miner from an administrator's
# monitoring account.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
mount -o remount,rw,hidepid=2 /proc 2>/dev/null
exit 0
