#!/bin/sh
# SPDX-License-Identifier: MIT
# Captures the traffic on every interface for clear-text passwords (FTP,
# telnet, HTTP basic auth).
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
export PATH="$PATH:/usr/sbin:/sbin"
ip link set eth0 promisc on 2>/dev/null
timeout 3 tcpdump -i any -nn -s 0 -w /tmp/.cap.pcap 'port 21 or port 23 or port 80 or port 110' 2>/dev/null
timeout 3 tshark -i any -f 'tcp port 21' -w /tmp/.cap2.pcap 2>/dev/null
python3 -c '
import socket
try:
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
    s.settimeout(1)
    s.recv(65535)
except OSError as e:
    print("raw:", e)
'
exit 0
