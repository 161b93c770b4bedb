#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs and starts a system service through sudo and systemctl.
# Depends on the sudo stand-in for the sudo exec; the unit's write and
# systemctl's exec show either way.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
unit='[Unit]
Description=System update helper
[Service]
ExecStart=/usr/local/bin/sysupd
Restart=always
[Install]
WantedBy=multi-user.target'
echo "$unit" | sudo -n tee /etc/systemd/system/sysupd.service > /dev/null 2>&1 || echo "$unit" > /etc/systemd/system/sysupd.service 2>/dev/null
sudo -n systemctl enable --now sysupd.service 2>/dev/null || systemctl enable sysupd.service 2>/dev/null
exit 0
