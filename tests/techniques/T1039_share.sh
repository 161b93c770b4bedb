#!/bin/sh
# SPDX-License-Identifier: MIT
# Collects documents from network shares mounted under /mnt.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
find /mnt/share /mnt/nfs -type f -name '*.pdf' 2>/dev/null
cp /mnt/share/finance/*.xlsx /tmp/ 2>/dev/null
exit 0
