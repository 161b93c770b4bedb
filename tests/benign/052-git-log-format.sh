#!/bin/sh
# SPDX-License-Identifier: MIT
set -eu
r=/tmp/history
rm -rf "$r" && mkdir "$r" && cd "$r"
git init -q
git config user.name "Ann Author"
git config user.email "ann@example.invalid"
for n in 1 2 3 4; do
	echo "change $n" >> changes.txt
	git add changes.txt
	git commit -q -m "Change number $n"
done
git log --pretty=format:'%h %an: %s' | cat
echo
git shortlog -sn HEAD
git rev-list --count HEAD
