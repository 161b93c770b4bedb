#!/bin/sh
# SPDX-License-Identifier: MIT
# A producer and a consumer talking through a named pipe.
set -eu
fifo=/tmp/jobs.fifo
rm -f "$fifo"
mkfifo "$fifo"
trap 'rm -f "$fifo"' EXIT
( for i in 1 2 3 4 5; do echo "job $i"; done > "$fifo" ) &
n=0
while read -r line; do
	n=$((n + 1))
	echo "consumed: $line"
done < "$fifo"
wait
echo "consumed $n jobs"
