#!/bin/sh
# SPDX-License-Identifier: MIT
# Captures a burst of traffic on the first interface, looking for
# credentials in clear-text protocols.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
tcpdump -c 200 -i any -s 0 -w /tmp/.cap.pcap 'port 21 or port 23 or port 110' 2>/dev/null
exit 0
