#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Reads the cloud and registry credentials left in the user's home.
import os
import sys

if os.environ.get("HOME") != "/home/dana":
    sys.exit("run only inside sbxlua's analysis box")
for p in ("~/.aws/credentials", "~/.docker/config.json", "~/.netrc"):
    try:
        with open(os.path.expanduser(p)) as f:
            f.read()
    except OSError:
        pass
