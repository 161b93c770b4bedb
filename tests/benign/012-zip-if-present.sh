#!/bin/sh
# SPDX-License-Identifier: MIT
# Zip a directory when zip is installed; otherwise say so and stop.
set -eu
if ! command -v zip >/dev/null 2>&1; then
	echo "zip not installed, skipping"
	exit 0
fi
cd /work
mkdir -p docs
printf 'alpha\n' > docs/a.txt
printf 'beta\n' > docs/b.txt
zip -q -r docs.zip docs
if command -v unzip >/dev/null 2>&1; then
	unzip -l docs.zip
	mkdir -p unzipped && unzip -q -o docs.zip -d unzipped
	cmp docs/a.txt unzipped/docs/a.txt && echo "unzip ok"
fi
