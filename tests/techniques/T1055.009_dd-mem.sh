#!/bin/sh
# SPDX-License-Identifier: MIT
# Injection with nothing but dd: the target's memory map gives a writable
# address, and dd writes bytes there through /proc/PID/mem (here the bytes
# it read from the same place: the target, a child of ours, is unchanged
# and killed at the end).
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
sleep 5 &
pid=$!
start=$(awk '$2 ~ /^rw/ { split($1, a, "-"); print a[1]; exit }' "/proc/$pid/maps")
if [ -n "$start" ]; then
	off=$(printf '%d' "0x$start")
	dd if="/proc/$pid/mem" of=/tmp/chunk bs=1 skip="$off" count=16 2>/dev/null
	dd if=/tmp/chunk of="/proc/$pid/mem" bs=1 seek="$off" conv=notrunc 2>/dev/null
fi
kill "$pid" 2>/dev/null
rm -f /tmp/chunk
exit 0
