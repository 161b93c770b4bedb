#!/bin/sh
# SPDX-License-Identifier: MIT
# An encrypted channel by hand: openssl's client to the operator's port.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
echo hello | timeout 3 openssl s_client -quiet -connect c2.example.net:8443 2>/dev/null
exit 0
