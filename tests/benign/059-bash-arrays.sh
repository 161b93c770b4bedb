#!/bin/bash
# SPDX-License-Identifier: MIT
# Bash arrays and associative arrays.
set -euo pipefail
fruits=(apple banana cherry)
fruits+=(date)
echo "count: ${#fruits[@]}, last: ${fruits[-1]}"
declare -A colour=([apple]=red [banana]=yellow [cherry]=red)
for k in $(printf '%s\n' "${!colour[@]}" | sort); do
	echo "$k is ${colour[$k]}"
done
s="Hello, Sandbox"
echo "${s,,} ${s^^} ${s:7} ${#s}"
