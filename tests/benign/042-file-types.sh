#!/bin/sh
# SPDX-License-Identifier: MIT
# Identify the types of files the script made, with file(1) when present.
set -eu
cd /tmp
echo "plain text" > t.txt
printf '{"a": 1}\n' > t.json
gzip -c t.txt > t.gz
if command -v file >/dev/null 2>&1; then
	file t.txt t.json t.gz
else
	echo "file(1) not installed"
fi
rm -f t.txt t.json t.gz
