#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Create a zip archive of files the script wrote, then read it."""
import os
import zipfile

os.makedirs("/work/zsrc", exist_ok=True)
for i in range(3):
    with open(f"/work/zsrc/note{i}.txt", "w") as f:
        f.write(f"note number {i}\n" * (i + 1))

with zipfile.ZipFile("/work/notes.zip", "w", compression=zipfile.ZIP_DEFLATED) as z:
    for name in sorted(os.listdir("/work/zsrc")):
        z.write(os.path.join("/work/zsrc", name), arcname=name)

with zipfile.ZipFile("/work/notes.zip") as z:
    assert z.testzip() is None
    for info in z.infolist():
        print(info.filename, info.file_size, info.compress_size)
    print(z.read("note2.txt").decode().splitlines()[0])
