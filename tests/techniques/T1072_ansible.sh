#!/bin/sh
# SPDX-License-Identifier: MIT
# Pushes a command to many hosts at once through a deployment tool
# (ansible, by its usual path: absent here, the exec is still attempted).
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
/usr/bin/ansible all -i 'web1,web2,db1,' -m shell -a 'id' 2>/dev/null
/usr/bin/salt '*' cmd.run 'id' 2>/dev/null
exit 0
