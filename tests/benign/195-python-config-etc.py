#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Reads system settings the way a configuration tool does: os-release and the host name.
import platform

info = {}
with open("/etc/os-release") as f:
    for line in f:
        k, _, v = line.strip().partition("=")
        if k:
            info[k] = v.strip('"')
print(info.get("PRETTY_NAME"), platform.machine())
