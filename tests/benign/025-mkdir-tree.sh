#!/bin/sh
# SPDX-License-Identifier: MIT
set -eu
base=/work/layout
mkdir -p "$base/src/core" "$base/src/util" "$base/tests/unit" "$base/docs"
touch "$base/src/core/main.c" "$base/tests/unit/test_main.c" "$base/docs/index.md"
find "$base" -type d | sort
echo "files: $(find "$base" -type f | wc -l)"
