#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Floods one host with datagrams.
import os
import sys

if os.environ.get("HOME") != "/home/dana":
    sys.exit("run only inside sbxlua's analysis box")
import socket

s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(150):
    try:
        s.sendto(b"x" * 64, ("10.0.0.9", 80))
    except OSError:
        pass
s.close()
