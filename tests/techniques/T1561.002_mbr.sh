#!/bin/sh
# SPDX-License-Identifier: MIT
# Wipes the partition table: zeroes the first sector of each disk, and
# wipefs (in the box no disk is there).
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
export PATH="$PATH:/usr/sbin:/sbin"
for d in /dev/sda /dev/vda /dev/nvme0n1; do
	dd if=/dev/zero of="$d" bs=512 count=1 conv=notrunc 2>/dev/null
done
wipefs -a /dev/sda 2>/dev/null
exit 0
