#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Writes and reads a gzip-compressed log with Python.
import gzip

with gzip.open("/work/log.gz", "wt") as f:
    for i in range(100):
        f.write("line %d\n" % i)
with gzip.open("/work/log.gz", "rt") as f:
    print(sum(1 for _ in f))
