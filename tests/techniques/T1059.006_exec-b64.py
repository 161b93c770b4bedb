#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# A Python stage whose payload arrives base64-encoded and is exec'd:
# the payload runs the host's `id`.
import os
import sys

if os.environ.get("HOME") != "/home/dana":
    sys.exit("run only inside sbxlua's analysis box")
import base64
import subprocess

payload = base64.b64encode(b"import subprocess\nsubprocess.run(['id'], check=False)\n")
code = compile(base64.b64decode(payload), "<stage>", "exec")
exec(code)
subprocess.run(["uname", "-a"], check=False)
