#!/bin/sh
# SPDX-License-Identifier: MIT
# Pads a binary with random bytes so its hash changes.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
cp /bin/true /tmp/tp
dd if=/dev/urandom of=/tmp/tp bs=1k count=4 oflag=append conv=notrunc 2>/dev/null
rm -f /tmp/tp
exit 0
