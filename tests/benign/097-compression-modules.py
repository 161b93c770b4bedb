#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""gzip, bz2 and lzma on the same data."""
import bz2
import gzip
import lzma

data = ("".join(f"line {i}: the same words again\n" for i in range(2000))).encode()
for name, mod in [("gzip", gzip), ("bz2", bz2), ("lzma", lzma)]:
    packed = mod.compress(data)
    assert mod.decompress(packed) == data
    print(f"{name:5} {len(data)} -> {len(packed)} bytes")
with gzip.open("/tmp/lines.gz", "wt") as f:
    f.write("written through gzip.open\n")
with gzip.open("/tmp/lines.gz", "rt") as f:
    print(f.read().strip())
