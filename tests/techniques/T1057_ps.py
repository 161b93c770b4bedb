#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Lists the processes from Python through ps.
import subprocess

subprocess.run(["ps", "-eo", "pid,comm"], check=False)
