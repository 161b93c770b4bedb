#!/usr/bin/python3
# SPDX-License-Identifier: MIT
import difflib

old = ["def add(a, b):\n", "    return a + b\n", "\n", "print(add(1, 2))\n"]
new = ["def add(a, b):\n", "    \"\"\"Sum.\"\"\"\n", "    return a + b\n", "\n", "print(add(2, 3))\n"]
with open("/tmp/change.diff", "w") as f:
    f.writelines(difflib.unified_diff(old, new, "old.py", "new.py"))
print(open("/tmp/change.diff").read(), end="")
print("similarity:", round(difflib.SequenceMatcher(None, "".join(old), "".join(new)).ratio(), 3))
print(difflib.get_close_matches("appel", ["ape", "apple", "peach", "puppy"]))
