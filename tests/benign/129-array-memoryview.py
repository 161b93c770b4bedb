#!/usr/bin/python3
# SPDX-License-Identifier: MIT
import array

a = array.array("d", (i / 4 for i in range(16)))
view = memoryview(a)
print("itemsize", a.itemsize, "bytes", view.nbytes)
with open("/tmp/floats.bin", "wb") as f:
    a.tofile(f)
b = array.array("d")
with open("/tmp/floats.bin", "rb") as f:
    b.fromfile(f, len(a))
assert a == b
print("sum", sum(b), "slice", view[2:5].tolist())
