#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Hash files with hashlib and compare with sha256sum."""
import hashlib
import subprocess

path = "/work/payload.bin"
with open(path, "wb") as f:
    for i in range(1000):
        f.write(i.to_bytes(4, "little"))

h = hashlib.sha256()
with open(path, "rb") as f:
    for block in iter(lambda: f.read(1024), b""):
        h.update(block)
mine = h.hexdigest()
theirs = subprocess.check_output(["sha256sum", path], text=True).split()[0]
print("sha256", mine)
assert mine == theirs
print("md5   ", hashlib.md5(open(path, "rb").read()).hexdigest())
print("blake2", hashlib.blake2b(b"abc", digest_size=16).hexdigest())
