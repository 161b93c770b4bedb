#!/bin/sh
# SPDX-License-Identifier: MIT
# Looks for documents on removable media.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
find /media /run/media -type f -name '*.doc*' 2>/dev/null
exit 0
