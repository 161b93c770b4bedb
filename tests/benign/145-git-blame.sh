#!/bin/sh
# SPDX-License-Identifier: MIT
# Who changed which line: two commits by two authors, then git blame.
set -eu
mkdir -p /work/bl && cd /work/bl
git init -q .
printf 'one\ntwo\n' > f
git add f && git -c user.email=a@example.org -c user.name=ann commit -qm first
printf 'one\n2\nthree\n' > f
git -c user.email=b@example.org -c user.name=bob commit -qam second
git blame --line-porcelain f | grep '^author ' | sort | uniq -c
