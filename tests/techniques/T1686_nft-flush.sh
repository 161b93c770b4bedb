#!/bin/sh
# SPDX-License-Identifier: MIT
# Opens the host before a worm's spreading step: empties the nftables rule
# set and removes ufw's rule that keeps SSH closed.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
nft flush ruleset 2>/dev/null
ufw delete deny 22/tcp 2>/dev/null
exit 0
