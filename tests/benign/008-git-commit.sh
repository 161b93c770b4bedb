#!/bin/sh
# SPDX-License-Identifier: MIT
# Create a repository, commit twice, show the log.
set -eu
mkdir -p /work/repo && cd /work/repo
git init -q
git config user.name "Build Bot"
git config user.email "build@example.invalid"
echo "# Demo" > README.md
git add README.md
git commit -q -m "Initial commit"
echo "More text." >> README.md
git commit -q -am "Extend the README"
git log --oneline
git status --short
