#!/bin/sh
# SPDX-License-Identifier: MIT
# Branch, commit on both sides, merge, and show what changed.
set -eu
r=$(mktemp -d /tmp/merge.XXXXXX)
trap 'rm -rf "$r"' EXIT
cd "$r"
git init -q -b main
git config user.name "Dev"
git config user.email "dev@example.invalid"
printf 'one\ntwo\nthree\n' > list.txt
git add list.txt && git commit -q -m "list"
git checkout -q -b feature
echo four >> list.txt
git commit -q -am "add four"
git checkout -q main
echo "notes" > notes.txt
git add notes.txt && git commit -q -m "notes"
git merge -q --no-edit feature
git log --oneline --graph
git diff --stat HEAD~2 HEAD
