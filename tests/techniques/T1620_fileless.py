#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Fileless execution: the payload's bytes go into an anonymous memory file
# and run from there under a kernel thread's name; nothing is written to a
# disk.  (The payload here is the host's own `id`.)
import os
import sys

if os.environ.get("HOME") != "/home/dana":
    sys.exit("run only inside sbxlua's analysis box")

with open("/usr/bin/id", "rb") as f:
    payload = f.read()
fd = os.memfd_create("", 0)
os.write(fd, payload)
pid = os.fork()
if pid == 0:
    try:
        os.execv("/proc/self/fd/%d" % fd, ["[kworker/u8:1-events]"])
    finally:
        os._exit(127)
os.waitpid(pid, 0)
