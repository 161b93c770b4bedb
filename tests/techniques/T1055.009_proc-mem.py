#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Injection through /proc/PID/mem: find a writable mapping of another
# process in its maps and write bytes into it.  The target is a child of
# our own, killed at the end.
import os
import subprocess
import sys

if os.environ.get("HOME") != "/home/dana":
    sys.exit("run only inside sbxlua's analysis box")

target = subprocess.Popen(["sleep", "5"])
try:
    pid = target.pid
    with open("/proc/%d/maps" % pid) as f:
        maps = f.read().splitlines()
    rw = [l for l in maps if l.split()[1].startswith("rw")]
    start = int(rw[-1].split("-")[0], 16) if rw else 0
    try:
        with open("/proc/%d/mem" % pid, "r+b", buffering=0) as mem:
            mem.seek(start)
            mem.write(b"\x90" * 16 + b"\x48\x31\xc0\xc3")
    except OSError as e:
        print("mem:", e)
finally:
    target.kill()
    target.wait()
