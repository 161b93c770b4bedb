#!/bin/sh
# SPDX-License-Identifier: MIT
# Looks for other users' SSH agents to borrow their logins.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
find /tmp -path '/tmp/ssh-*' -name 'agent.*' 2>/dev/null
grep -a SSH_AUTH_SOCK /proc/[0-9]*/environ 2>/dev/null
exit 0
