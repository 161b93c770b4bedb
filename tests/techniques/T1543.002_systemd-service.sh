#!/bin/sh
# SPDX-License-Identifier: MIT
# Persistence as a systemd service: a system unit if it can, a user unit
# otherwise, enabled so that it starts with the machine or the session.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
unit='[Unit]
Description=Network Time Helper
After=network-online.target

[Service]
ExecStart=/work/.local/bin/ntphelper
Restart=always
RestartSec=30

[Install]
WantedBy=multi-user.target default.target
'
mkdir -p "$HOME/.local/bin"
cp /bin/sleep "$HOME/.local/bin/ntphelper"
printf '%s' "$unit" > /etc/systemd/system/ntp-helper.service 2>/dev/null &&
	systemctl enable --now ntp-helper.service 2>/dev/null
mkdir -p "$HOME/.config/systemd/user"
printf '%s' "$unit" > "$HOME/.config/systemd/user/ntp-helper.service"
systemctl --user daemon-reload 2>/dev/null
systemctl --user enable ntp-helper.service 2>/dev/null
exit 0
