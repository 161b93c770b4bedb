#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Reaches an ngrok agent's tunnel endpoint, as an intruder's agent does to
# expose a shell on a host behind NAT.
import os
import socket
import sys

if os.environ.get("HOME") != "/home/dana":
    sys.exit("run only inside sbxlua's analysis box")
for host, port in (("tunnel.us.ngrok.com", 443),):
    try:
        s = socket.create_connection((host, port), timeout=3)
        s.close()
    except OSError:
        pass
