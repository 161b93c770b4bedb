#!/bin/sh
# SPDX-License-Identifier: MIT
# Cracks a password hash offline with a word list (the crackers by their
# usual paths; the hash is one it made itself).
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
w=$(mktemp -d)
printf 'dana:%s\n' "$(openssl passwd -6 -salt abcdefgh summer2024)" > "$w/hashes"
printf 'winter2023\nsummer2024\n' > "$w/words"
/usr/sbin/john --wordlist="$w/words" "$w/hashes" 2>/dev/null
/usr/bin/hashcat -m 1800 -a 0 "$w/hashes" "$w/words" 2>/dev/null
rm -rf "$w"
exit 0
