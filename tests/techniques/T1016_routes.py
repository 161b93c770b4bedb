#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Reads the routing table from Python.
with open("/proc/net/route") as f:
    for line in f.readlines()[1:]:
        print(line.split()[0])
