#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Refuses to run under a debugger: TracerPid in /proc/self/status, then
# PTRACE_TRACEME (a second tracer cannot attach after it).
import ctypes
import os
import sys

if os.environ.get("HOME") != "/home/dana":
    sys.exit("run only inside sbxlua's analysis box")

with open("/proc/self/status") as f:
    for line in f:
        if line.startswith("TracerPid:") and int(line.split()[1]) != 0:
            sys.exit(0)
libc = ctypes.CDLL(None, use_errno=True)
if libc.ptrace(0, 0, None, None) == -1:  # PTRACE_TRACEME
    print("traced or refused:", ctypes.get_errno())
    sys.exit(0)
print("not debugged: going on")
