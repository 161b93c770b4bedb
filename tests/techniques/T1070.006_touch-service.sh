#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs a user service for persistence, then back-dates the unit file so
# it looks as old as its neighbours.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
d=$HOME/.config/systemd/user; mkdir -p "$d"
printf '[Service]\nExecStart=/bin/true\n' > "$d/dbus-helper.service"
touch -t 202101150930 "$d/dbus-helper.service"
rm -f "$d/dbus-helper.service"
exit 0
