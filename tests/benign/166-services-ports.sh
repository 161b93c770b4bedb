#!/bin/sh
# SPDX-License-Identifier: MIT
# Which port a service uses, from /etc/services.
set -eu
[ -r /etc/services ] || exit 0
for s in ssh http https smtp; do
	awk -v s="$s" '$1 == s && $2 ~ /tcp/ { print s, $2; exit }' /etc/services
done
