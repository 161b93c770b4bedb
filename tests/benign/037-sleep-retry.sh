#!/bin/sh
# SPDX-License-Identifier: MIT
# A retry loop with a short back-off, waiting for a file another process writes.
set -eu
rm -f /tmp/ready
( sleep 0.2; echo ok > /tmp/ready ) &
tries=0
until [ -s /tmp/ready ]; do
	tries=$((tries + 1))
	[ "$tries" -le 50 ] || { echo "gave up"; exit 1; }
	sleep 0.1
done
wait
echo "ready after $tries tries: $(cat /tmp/ready)"
