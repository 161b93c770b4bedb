#!/bin/sh
# SPDX-License-Identifier: MIT
# A package repository's index: names, versions and hashes of the files, in a Packages-like file.
set -eu
mkdir -p /work/repo/pool && cd /work/repo
for p in alpha-1.2 beta-0.9 gamma-3.0; do printf '%s\n' "$p" > "pool/$p.tar"; gzip -9 "pool/$p.tar"; done
for f in pool/*.tar.gz; do
	n=$(basename "$f" .tar.gz)
	printf 'Package: %s\nVersion: %s\nFilename: %s\nSHA256: %s\n\n' "${n%-*}" "${n##*-}" "$f" "$(sha256sum < "$f" | cut -d' ' -f1)"
done > Packages
gzip -k Packages
grep -c '^Package:' Packages
