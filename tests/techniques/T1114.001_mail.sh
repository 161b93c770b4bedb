#!/bin/sh
# SPDX-License-Identifier: MIT
# Reads the user's local mail.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
m="$HOME/Maildir/cur"
mkdir -p "$m"
printf 'From: bank@example.com\nSubject: your code\n\n123456\n' > "$m/1700000000.M1.host:2,S"
cat "$m"/* > /dev/null
cat /var/mail/dana 2>/dev/null
exit 0
