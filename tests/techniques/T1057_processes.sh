#!/bin/sh
# SPDX-License-Identifier: MIT
# The processes running: a full list, and a look for interesting ones.
ps aux
ps -ef --forest
pgrep -a 'sshd|mysqld|java|python'
for p in /proc/[0-9]*; do
	tr '\0' ' ' < "$p/cmdline" 2>/dev/null
	echo
done
