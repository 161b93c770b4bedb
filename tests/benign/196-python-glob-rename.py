#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Renames a batch of files to a numbered pattern, as a photo tool does.
import os
import pathlib

d = pathlib.Path("/work/photos")
d.mkdir(exist_ok=True)
for n in ("b.jpg", "a.jpg", "c.jpg"):
    (d / n).write_bytes(b"\xff\xd8")
for i, p in enumerate(sorted(d.glob("*.jpg")), 1):
    p.rename(d / ("img_%03d.jpg" % i))
print(sorted(os.listdir(d)))
