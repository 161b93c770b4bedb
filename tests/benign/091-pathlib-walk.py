#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Build a tree with pathlib and summarise it by suffix."""
from collections import Counter
from pathlib import Path

root = Path("/work/pl-tree")
for rel in ["src/app.py", "src/util.py", "docs/guide.md", "docs/api.md", "data/a.csv", "README.md"]:
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(f"contents of {rel}\n")

by_suffix = Counter(p.suffix for p in root.rglob("*") if p.is_file())
for suffix, n in sorted(by_suffix.items()):
    print(f"{suffix or '(none)'}: {n}")
print("largest:", max((p for p in root.rglob("*") if p.is_file()), key=lambda p: p.stat().st_size).name)
