#!/bin/sh
# SPDX-License-Identifier: MIT
# Bringing tools in through the host's own package manager: a scanner, a
# relay and a packet capture tool, with whichever manager the host has.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
apt-get install -y nmap socat tshark > /dev/null 2>&1
apt install -y netcat-openbsd proxychains4 > /dev/null 2>&1
/usr/bin/yum install -y nmap socat > /dev/null 2>&1
exit 0
