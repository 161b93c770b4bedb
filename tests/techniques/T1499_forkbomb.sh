#!/bin/sh
# SPDX-License-Identifier: MIT
# A fork bomb, bounded here to seven generations of two children each
# (the unbounded form needs no counter).
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
bomb() {
	[ "$1" -gt 0 ] || { sleep 0.5; return; }
	bomb $(($1 - 1)) &
	bomb $(($1 - 1)) &
	wait
}
bomb 7
exit 0
