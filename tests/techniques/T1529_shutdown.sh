#!/bin/sh
# SPDX-License-Identifier: MIT
# Takes the machine down after the damage is done.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
export PATH="$PATH:/usr/sbin:/sbin"
sync
shutdown -r now 'maintenance' 2>/dev/null
systemctl reboot --force 2>/dev/null
reboot -f 2>/dev/null
echo b > /proc/sysrq-trigger 2>/dev/null
poweroff -f 2>/dev/null
init 0 2>/dev/null
exit 0
