#!/bin/sh
# SPDX-License-Identifier: MIT
# Work in progress: stash it, look at the diff, bring it back.
set -eu
mkdir -p /work/wip && cd /work/wip
git init -q
git config user.name "Wip"
git config user.email "wip@example.invalid"
printf 'alpha\nbeta\n' > notes.txt
git add notes.txt && git commit -q -m "notes"
echo gamma >> notes.txt
git diff --stat
git stash -q
git status --short | wc -l
git stash pop -q
git diff | grep '^+gamma'
