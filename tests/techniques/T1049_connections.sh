#!/bin/sh
# SPDX-License-Identifier: MIT
# The network connections open on the host and who holds them.
export PATH="$PATH:/usr/sbin:/sbin"
ss -tunap
netstat -antup 2>/dev/null
cat /proc/net/tcp /proc/net/tcp6 /proc/net/udp
lsof -i -n -P 2>/dev/null
