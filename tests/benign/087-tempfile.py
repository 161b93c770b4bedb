#!/usr/bin/python3
# SPDX-License-Identifier: MIT
import os
import tempfile

with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "scratch.txt")
    with open(path, "w") as f:
        f.write("scratch data\n")
    print("wrote", os.path.getsize(path), "bytes in a temporary directory")
assert not os.path.exists(d)

with tempfile.NamedTemporaryFile("w+", suffix=".txt") as f:
    f.write("line 1\nline 2\n")
    f.flush()
    f.seek(0)
    print("named temp file has", len(f.readlines()), "lines")
print("temp dir is", tempfile.gettempdir())
