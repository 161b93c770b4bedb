#!/bin/sh
# SPDX-License-Identifier: MIT
# After dropping a unit file, reloads systemd and restarts the service so
# that the new unit runs now.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
mkdir -p $HOME/.config/systemd/user
printf '[Service]\nExecStart=/tmp/.u/agent\n' > $HOME/.config/systemd/user/dbus-helper.service
systemctl daemon-reload 2>/dev/null
systemctl restart dbus-helper.service 2>/dev/null
service dbus-helper restart 2>/dev/null
exit 0
