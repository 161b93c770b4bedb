#!/bin/sh
# SPDX-License-Identifier: MIT
# Is there a way out to the Internet: the route a packet would take, a
# ping and a trace (by their usual paths).
ip route get 1.1.1.1 2>/dev/null
/usr/bin/ping -c 1 -W 1 8.8.8.8 2>/dev/null
/usr/sbin/traceroute -m 3 1.1.1.1 2>/dev/null
exit 0
