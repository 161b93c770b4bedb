#!/bin/sh
# SPDX-License-Identifier: MIT
# A worm's spreader scans the local network with pnscan (by its usual path)
# for exposed Redis and Docker APIs, sending a probe in hex and matching
# the answer's first bytes.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
/usr/local/bin/pnscan -t 256 -W "2a 31 0d 0a 24 34 0d 0a 69 6e 66 6f 0d 0a" -R "24 33" 10.0.0.0/24 6379 2>/dev/null
/usr/local/bin/pnscan -t 256 -w "GET /v1.16/version HTTP/1.1" -R "48 54 54 50" 10.0.0.0/24 2375 2>/dev/null
exit 0
