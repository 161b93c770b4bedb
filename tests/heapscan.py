#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""heapscan.py PID HEXFILE: whether the memory of process PID holds the
bytes HEXFILE names (in hex): prints "found" or "absent"; exit 2 when the
memory cannot be read at all."""
import sys

pid, needle = sys.argv[1], bytes.fromhex(open(sys.argv[2]).read().strip())
read_any = False
with open(f"/proc/{pid}/maps") as maps, open(f"/proc/{pid}/mem", "rb", 0) as mem:
    for line in maps:
        addr, perms = line.split()[:2]
        if not perms.startswith("r"):
            continue
        start, end = (int(x, 16) for x in addr.split("-"))
        try:
            mem.seek(start)
            data = mem.read(end - start)
        except OSError:
            continue
        read_any = True
        if needle in data:
            print("found")
            sys.exit(0)
if not read_any:
    sys.exit(2)
print("absent")
