#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# A TCP connect scan of one host's common service ports.
import os
import socket
import sys

if os.environ.get("HOME") != "/home/dana":
    sys.exit("run only inside sbxlua's analysis box")

HOST = "10.0.0.2"
PORTS = [21, 22, 23, 25, 53, 80, 110, 135, 139, 143, 443, 445, 993, 1433, 3306,
         3389, 5432, 5900, 6379, 8080, 8443, 9200]
open_ports = []
for port in PORTS:
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(0.3)
    if s.connect_ex((HOST, port)) == 0:
        open_ports.append(port)
    s.close()
print(HOST, open_ports)
