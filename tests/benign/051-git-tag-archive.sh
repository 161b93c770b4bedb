#!/bin/sh
# SPDX-License-Identifier: MIT
# Tag a release and export it with git archive.
set -eu
mkdir -p /work/rel && cd /work/rel
git init -q -b main
git config user.name "Release Manager"
git config user.email "release@example.invalid"
mkdir -p src
echo 'print("v1")' > src/app.py
echo "1.0.0" > VERSION
git add . && git commit -q -m "Release 1.0.0"
git tag -a v1.0.0 -m "version 1.0.0"
git archive --format=tar.gz --prefix=rel-1.0.0/ -o /work/rel-1.0.0.tar.gz v1.0.0
tar -tzf /work/rel-1.0.0.tar.gz
git describe --tags
