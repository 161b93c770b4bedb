#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# A beacon over bare UDP to a port no service uses.
import os
import sys

if os.environ.get("HOME") != "/home/dana":
    sys.exit("run only inside sbxlua's analysis box")
import socket

s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.settimeout(1)
for i in range(3):
    try:
        s.sendto(b"HB%d" % i, ("c2.example.net", 31337))
    except OSError:
        pass
s.close()
