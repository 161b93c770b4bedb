#!/bin/sh
# SPDX-License-Identifier: MIT
# Build a small source tree, then search it with find and grep.
set -eu
t=/work/tree
mkdir -p "$t/lib" "$t/bin" "$t/doc"
echo 'def helper(): return 1  # TODO tidy' > "$t/lib/util.py"
echo 'import util' > "$t/bin/run.py"
echo 'TODO: write the manual' > "$t/doc/manual.txt"
echo 'nothing to see' > "$t/doc/notes.txt"
echo "python files:"
find "$t" -name '*.py' -type f | sort
echo "TODO markers:"
grep -rn TODO "$t" | sort
echo "files without TODO: $(grep -rL TODO "$t" | wc -l)"
