#!/bin/sh
# SPDX-License-Identifier: MIT
# Packs its payload with UPX (by its usual path).
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
cp /bin/true /tmp/pk
/usr/bin/upx -9 -q /tmp/pk 2>/dev/null
rm -f /tmp/pk
exit 0
