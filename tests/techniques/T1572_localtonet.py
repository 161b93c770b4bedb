#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Reaches a LocaltoNet relay, the tunnel service an intruder's agent uses
# to expose a shell on a host behind NAT.
import os
import socket
import sys

if os.environ.get("HOME") != "/home/dana":
    sys.exit("run only inside sbxlua's analysis box")
for host, port in (("eu1.localto.net", 443),):
    try:
        s = socket.create_connection((host, port), timeout=3)
        s.close()
    except OSError:
        pass
