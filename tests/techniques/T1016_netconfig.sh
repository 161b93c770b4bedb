#!/bin/sh
# SPDX-License-Identifier: MIT
# The network configuration: interfaces, addresses, routes, resolvers.
export PATH="$PATH:/usr/sbin:/sbin"
ip addr
ifconfig -a
ip route
cat /proc/net/route
cat /etc/resolv.conf
cat /etc/hostname /etc/network/interfaces 2>/dev/null
hostname -I
