#!/usr/bin/python3
# SPDX-License-Identifier: MIT
import mmap

path = "/tmp/mapped.dat"
with open(path, "wb") as f:
    f.write(b"hello mapped world\n" + b"." * 4077)
with open(path, "r+b") as f:
    with mmap.mmap(f.fileno(), 0) as m:
        print(m[:18].decode())
        m[0:5] = b"HELLO"
        print("found 'world' at", m.find(b"world"))
        m.flush()
with open(path, "rb") as f:
    print(f.read(5))
