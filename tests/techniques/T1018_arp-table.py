#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Finds its neighbours in the ARP table from Python.
try:
    with open("/proc/net/arp") as f:
        print(f.read())
except OSError:
    pass
