#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Parse an access log with regular expressions."""
import re
from collections import Counter

LOG = """\
192.0.2.1 - - [05/Jan/2024:10:00:01 +0000] "GET /index.html HTTP/1.1" 200 512
192.0.2.7 - - [05/Jan/2024:10:00:02 +0000] "GET /missing HTTP/1.1" 404 0
192.0.2.1 - - [05/Jan/2024:10:00:03 +0000] "POST /api/items HTTP/1.1" 201 64
198.51.100.3 - - [05/Jan/2024:10:00:04 +0000] "GET /index.html HTTP/1.1" 200 512
"""
with open("/tmp/access.log", "w") as f:
    f.write(LOG)

pattern = re.compile(r'^(?P<ip>\S+) .* "(?P<method>[A-Z]+) (?P<path>\S+) [^"]*" (?P<status>\d{3}) (?P<size>\d+)$')
status = Counter()
size = 0
with open("/tmp/access.log") as f:
    for line in f:
        m = pattern.match(line.rstrip("\n"))
        assert m, line
        status[m["status"]] += 1
        size += int(m["size"])
print(dict(sorted(status.items())), "bytes:", size)
print(re.sub(r"\d+\.\d+\.\d+\.\d+", "<ip>", LOG.splitlines()[0]))
