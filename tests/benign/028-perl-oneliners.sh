#!/bin/sh
# SPDX-License-Identifier: MIT
set -eu
printf 'name=alpha\nsize=10\nname=beta\nsize=32\n' > /tmp/kv.txt
perl -ne 'print "$1\n" if /^name=(\w+)/' /tmp/kv.txt
perl -ne '$t += $1 if /^size=(\d+)/; END { print "total size $t\n" }' /tmp/kv.txt
perl -pi -e 's/^size=/bytes=/' /tmp/kv.txt
cat /tmp/kv.txt
perl -e 'printf "%.3f\n", atan2(1, 1) * 4'
