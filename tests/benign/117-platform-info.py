#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Print where the script runs: interpreter, system, CPU count (information only)."""
import os
import platform
import sys

print("python", platform.python_version(), "on", platform.system(), platform.machine())
print("executable", sys.executable)
print("cpus", os.cpu_count())
print("uid", os.getuid(), "cwd", os.getcwd())
print("byte order", sys.byteorder)
