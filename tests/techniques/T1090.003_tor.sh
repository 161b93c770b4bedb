#!/bin/sh
# SPDX-License-Identifier: MIT
# Reaches its server through Tor: an onion address through the local
# SOCKS port, and torsocks (by its usual path).
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
curl -sm 3 --socks5-hostname 127.0.0.1:9050 http://abcdefghij234567.onion/gate 2>/dev/null
/usr/bin/torsocks curl -sm 3 http://abcdefghij234567.onion/gate 2>/dev/null
exit 0
