#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Lists the open connections from Python, as netstat does.
for t in ("/proc/net/tcp", "/proc/net/udp"):
    try:
        with open(t) as f:
            print(len(f.readlines()) - 1, t)
    except OSError:
        pass
