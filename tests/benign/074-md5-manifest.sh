#!/bin/sh
# SPDX-License-Identifier: MIT
# A manifest of every file in a tree, verified after a copy.
set -eu
src=/work/assets
mkdir -p "$src/img" "$src/css"
printf 'body{}\n' > "$src/css/site.css"
head -c 512 /dev/zero > "$src/img/blank.raw"
echo "<html></html>" > "$src/index.html"
(cd "$src" && find . -type f -exec md5sum {} + | sort -k2) > /tmp/manifest
cp -a "$src" /tmp/assets-copy
(cd /tmp/assets-copy && md5sum -c --quiet /tmp/manifest) && echo "copy verified ($(wc -l < /tmp/manifest) files)"
