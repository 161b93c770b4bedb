#!/bin/sh
# SPDX-License-Identifier: MIT
# An administrator's chores in a scratch tree, with the tools that can also
# start programs used as intended: find -exec, flock, nice, env, nohup, awk,
# a dry run of the package manager, the machine's word size.
set -e
d=$(mktemp -d)
cd "$d"
for i in 1 2 3; do printf 'line %s\n' "$i" > "f$i.log"; done
touch old.tmp
find . -name '*.tmp' -exec rm -f {} \;
find . -type f -exec sh -c 'wc -l < "$1"' _ {} \; > counts
flock "$d/lock" -c 'cat f1.log > /dev/null'
nice -n 10 gzip -k f2.log
env LC_ALL=C sort counts > sorted
nohup true > /dev/null 2>&1
awk 'BEGIN { n = 0 } { n += $1 } END { print n }' counts > total
uname -m | grep -c 64 > /dev/null || true
apt-get -s install make > /dev/null 2>&1 || true
mount | grep -c ' /proc ' > /dev/null || true
cd /
rm -rf "$d"
