#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Dumps another process's memory looking for secrets: its maps for the
# readable regions, then /proc/PID/mem.  The target is a child of our own
# holding a password, killed at the end.
import os
import re
import subprocess
import sys
import time

if os.environ.get("HOME") != "/home/dana":
    sys.exit("run only inside sbxlua's analysis box")

target = subprocess.Popen(["python3", "-c",
                           "import time; pw = 'hunter2-' * 8; time.sleep(5)"])
time.sleep(0.5)
hits = []
try:
    pid = target.pid
    with open("/proc/%d/maps" % pid) as f:
        regions = [l.split() for l in f]
    with open("/proc/%d/mem" % pid, "rb", buffering=0) as mem:
        for r in regions:
            if not r[1].startswith("r") or (len(r) > 5 and r[5].startswith("[v")):
                continue
            lo, hi = (int(x, 16) for x in r[0].split("-"))
            try:
                mem.seek(lo)
                chunk = mem.read(min(hi - lo, 1 << 22))
            except OSError:
                continue
            hits += re.findall(rb"hunter2-[ -~]{0,16}", chunk)[:2]
except OSError as e:
    print("dump:", e)
finally:
    target.kill()
    target.wait()
print(len(hits))
