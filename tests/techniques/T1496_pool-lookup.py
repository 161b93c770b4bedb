#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# A miner looking up its pool.
import os
import sys

if os.environ.get("HOME") != "/home/dana":
    sys.exit("run only inside sbxlua's analysis box")
import socket

for name in ("pool.supportxmr.com", "xmr.pool.example.net"):
    try:
        socket.gethostbyname(name)
    except OSError:
        pass
