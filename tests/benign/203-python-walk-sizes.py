#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Sums file sizes per extension under the work area.
import collections
import os

os.makedirs("/work/tree/sub", exist_ok=True)
for n, size in (("a.txt", 10), ("b.log", 20), ("sub/c.txt", 5)):
    with open("/work/tree/" + n, "wb") as f:
        f.write(b"x" * size)
sizes = collections.Counter()
for root, _, files in os.walk("/work/tree"):
    for n in files:
        sizes[os.path.splitext(n)[1]] += os.path.getsize(os.path.join(root, n))
print(dict(sizes))
