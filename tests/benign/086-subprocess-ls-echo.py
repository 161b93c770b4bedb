#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Run ls and echo as subprocesses and use their output."""
import os
import subprocess

os.makedirs("/work/listing", exist_ok=True)
for name in ("b.txt", "a.txt", "c.log"):
    open(os.path.join("/work/listing", name), "w").close()
out = subprocess.run(["ls", "/work/listing"], capture_output=True, text=True, check=True).stdout
print("ls says:", out.split())
echoed = subprocess.check_output(["echo", "hello", "from", "echo"], text=True)
print(echoed.strip())
rc = subprocess.call(["ls", "/work/listing/missing"], stderr=subprocess.DEVNULL)
print("ls of a missing file returned", rc)
