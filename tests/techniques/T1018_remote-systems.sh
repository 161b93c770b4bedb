#!/bin/sh
# SPDX-License-Identifier: MIT
# Which other machines are around: the neighbour table, the hosts file,
# the known SSH hosts, a ping sweep.
export PATH="$PATH:/usr/sbin:/sbin"
arp -a 2>/dev/null
ip neigh
cat /proc/net/arp
cat /etc/hosts
cat "$HOME/.ssh/known_hosts" 2>/dev/null
for i in 1 2 3 4 5; do
	/bin/ping -c 1 -W 1 "192.168.1.$i" > /dev/null 2>&1
done
exit 0
