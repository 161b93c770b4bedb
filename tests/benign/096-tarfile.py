#!/usr/bin/python3
# SPDX-License-Identifier: MIT
import io
import tarfile

with tarfile.open("/tmp/bundle.tar.gz", "w:gz") as tar:
    for name, text in [("readme.txt", "read me\n"), ("data/values.txt", "1\n2\n3\n")]:
        data = text.encode()
        info = tarfile.TarInfo(name)
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))

with tarfile.open("/tmp/bundle.tar.gz") as tar:
    print(tar.getnames())
    values = tar.extractfile("data/values.txt").read().decode().split()
    print("sum of values:", sum(map(int, values)))
    # the extraction filter where this Python has it (3.11.4 and later)
    safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
    tar.extractall("/tmp/bundle-out", **safe)
print(open("/tmp/bundle-out/readme.txt").read().strip())
