#!/bin/sh
# SPDX-License-Identifier: MIT
# Detaches its payload from the process tree: setsid and a fork, so the
# payload's parent is init, not the program that started it.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
setsid -f sh -c 'sleep 0.3; id > /dev/null'
( sh -c 'sleep 0.5; uname -a > /dev/null' & )
sleep 1
exit 0
