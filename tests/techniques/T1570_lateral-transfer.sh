#!/bin/sh
# SPDX-License-Identifier: MIT
# Copies its tools to the next machines: scp and rsync over SSH.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
opts='-o BatchMode=yes -o StrictHostKeyChecking=no -o ConnectTimeout=2'
cp /bin/true /tmp/.kdevtmpfsi
for h in 10.0.0.5 db01.corp.example.net; do
	timeout 2 scp $opts /tmp/.kdevtmpfsi "root@$h:/tmp/.kdevtmpfsi" 2>/dev/null
done
timeout 2 rsync -a -e "ssh $opts" /tmp/.kdevtmpfsi "admin@10.0.0.6:/dev/shm/" 2>/dev/null
exit 0
