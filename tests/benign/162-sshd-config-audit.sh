#!/bin/sh
# SPDX-License-Identifier: MIT
# Audits the SSH server's configuration for risky settings, reading only.
set -eu
f=/etc/ssh/sshd_config
[ -r "$f" ] || exit 0
for k in PermitRootLogin PasswordAuthentication X11Forwarding; do
	v=$(grep -i "^$k" "$f" | awk '{ print $2 }' | tail -1)
	echo "$k=${v:-default}"
done
