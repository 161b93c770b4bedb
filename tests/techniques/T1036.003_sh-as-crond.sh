#!/bin/sh
# SPDX-License-Identifier: MIT
# Keeps a shell under a daemon's name: a copy of /bin/sh called crond in a
# hidden directory, which ps then shows as the cron daemon.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
mkdir -p /tmp/.ICE-unix/.d && cd /tmp/.ICE-unix/.d || exit 0
cp /bin/sh /tmp/.ICE-unix/.d/crond
chmod 700 crond
./crond -c 'sleep 0.1'
exit 0
