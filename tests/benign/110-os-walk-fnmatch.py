#!/usr/bin/python3
# SPDX-License-Identifier: MIT
import fnmatch
import os

root = "/tmp/walkme"
for d in ("a", "a/b", "c"):
    os.makedirs(os.path.join(root, d), exist_ok=True)
for f in ("a/x.py", "a/b/y.py", "a/b/notes.txt", "c/z.pyc", "top.py"):
    open(os.path.join(root, f), "w").close()

found = []
for dirpath, dirnames, filenames in os.walk(root):
    dirnames.sort()
    for name in sorted(fnmatch.filter(filenames, "*.py")):
        found.append(os.path.relpath(os.path.join(dirpath, name), root))
print(found)
assert found == ["top.py", "a/x.py", "a/b/y.py"]
