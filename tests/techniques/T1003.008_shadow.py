#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Reads the password hashes from Python.
import os
import sys

if os.environ.get("HOME") != "/home/dana":
    sys.exit("run only inside sbxlua's analysis box")
try:
    with open("/etc/shadow") as f:
        print(f.read())
except OSError:
    pass
