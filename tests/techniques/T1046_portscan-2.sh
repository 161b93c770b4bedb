#!/bin/bash
# SPDX-License-Identifier: MIT
# The same scan from a shell without tools: nmap if there is one, else
# bash's /dev/tcp over a few hosts' usual ports.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
/usr/bin/nmap -sT -Pn -p 21-23,80,443,445,3306,8080 10.0.0.0/29 2>/dev/null
for h in 10.0.0.2 10.0.0.3; do
	for p in 21 22 23 25 80 110 143 443 445 3306 6379 8080; do
		(exec 3<> "/dev/tcp/$h/$p") 2>/dev/null && echo "$h:$p open"
	done
done
exit 0
