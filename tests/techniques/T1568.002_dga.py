#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Finds its server among names generated from the date, as a domain
# generation algorithm does: only the operator knows which will answer.
import os
import sys

if os.environ.get("HOME") != "/home/dana":
    sys.exit("run only inside sbxlua's analysis box")
import datetime
import socket

seed = datetime.date(2026, 1, 1).toordinal()
letters = "bcdfghjklmnpqrstvwxz0123456789"
for n in range(12):
    x = seed * (n + 7)
    name = ""
    for _ in range(14):
        x = (x * 1103515245 + 12345) % 2147483648
        name += letters[x % len(letters)]
    try:
        socket.gethostbyname(name + ".net")
    except OSError:
        pass
