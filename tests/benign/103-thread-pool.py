#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Hash several files concurrently with a thread pool."""
import hashlib
import os
from concurrent.futures import ThreadPoolExecutor, as_completed

os.makedirs("/tmp/tp", exist_ok=True)
paths = []
for i in range(8):
    p = f"/tmp/tp/chunk{i}.dat"
    with open(p, "wb") as f:
        f.write(bytes([i]) * (10000 * (i + 1)))
    paths.append(p)


def digest(path):
    with open(path, "rb") as f:
        return path, hashlib.sha1(f.read()).hexdigest()[:12]


with ThreadPoolExecutor(max_workers=3) as ex:
    futures = [ex.submit(digest, p) for p in paths]
    results = dict(f.result() for f in as_completed(futures))
for p in paths:
    print(os.path.basename(p), results[p])
