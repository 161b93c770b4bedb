#!/bin/sh
# SPDX-License-Identifier: MIT
# Fibonacci numbers with shell arithmetic.
set -eu
a=0 b=1 i=0
while [ $i -lt 20 ]; do
	printf '%d ' "$a"
	t=$((a + b)); a=$b; b=$t
	i=$((i + 1))
done
echo
