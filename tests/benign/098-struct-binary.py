#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Write fixed-size binary records with struct and read them back."""
import struct

REC = struct.Struct("<I8sf")
records = [(1, b"alpha", 1.5), (2, b"beta", 2.25), (3, b"gamma", -0.5)]
with open("/work/records.bin", "wb") as f:
    for r in records:
        f.write(REC.pack(*r))

with open("/work/records.bin", "rb") as f:
    data = f.read()
assert len(data) == REC.size * len(records)
for ident, name, value in REC.iter_unpack(data):
    print(ident, name.rstrip(b"\0").decode(), value)
