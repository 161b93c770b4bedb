#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Runs Python code that only exists base64-encoded in the file: decoded and
# handed to exec, so no command line shows it.
import base64
import os
import sys

if os.environ.get("HOME") != "/home/dana":
    sys.exit("run only inside sbxlua's analysis box")
exec(base64.b64decode("aW1wb3J0IHBsYXRmb3JtCm5vZGUgPSBwbGF0Zm9ybS5ub2RlKCkK"))
