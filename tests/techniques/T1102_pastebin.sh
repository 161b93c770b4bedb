#!/bin/sh
# SPDX-License-Identifier: MIT
# Reads its next commands from public web services: a paste site and a
# raw file on a code host.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
curl -fsm 3 https://pastebin.com/raw/x7Kd9qPz -o /tmp/cmds 2>/dev/null
curl -fsm 3 https://raw.githubusercontent.com/someone/notes/main/todo.txt >> /tmp/cmds 2>/dev/null
rm -f /tmp/cmds
exit 0
