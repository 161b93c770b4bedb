#!/bin/sh
# SPDX-License-Identifier: MIT
# Opens the host's firewall: every table flushed, policies set to accept,
# the front-ends disabled.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
export PATH="$PATH:/usr/sbin:/sbin"
/sbin/iptables -F 2>/dev/null
/sbin/iptables -X 2>/dev/null
/sbin/iptables -P INPUT ACCEPT 2>/dev/null
/sbin/iptables -t nat -F 2>/dev/null
/sbin/ip6tables -F 2>/dev/null
/usr/sbin/ufw disable 2>/dev/null
/usr/sbin/nft flush ruleset 2>/dev/null
systemctl stop firewalld 2>/dev/null
exit 0
