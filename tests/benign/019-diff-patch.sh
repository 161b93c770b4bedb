#!/bin/sh
# SPDX-License-Identifier: MIT
# Make a unified diff, apply it with patch, check the result with cmp.
set -eu
cd /tmp
printf 'line one\nline two\nline three\n' > orig.txt
printf 'line one\nline 2\nline three\nline four\n' > new.txt
diff -u orig.txt new.txt > change.patch || true
cp orig.txt work.txt
patch -s work.txt < change.patch
cmp work.txt new.txt && echo "patched file matches"
rm -f orig.txt new.txt work.txt change.patch
