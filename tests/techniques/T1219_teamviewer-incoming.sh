#!/bin/sh
# SPDX-License-Identifier: MIT
# Remote desktop software taking an incoming session: a TeamViewer-style
# service starts its desktop module for the connection, as the real one
# does under the names it installs (a service process that starts the
# desktop process with its IPC port and module number).
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
d=$HOME/.local/share/teamviewer/tv_bin
mkdir -p "$d"
printf '#!/bin/sh\nexit 0\n' > "$d/TeamViewer_Desktop"
printf '#!/bin/sh\n"%s/TeamViewer_Desktop" --IPCport 5939 --Module 1\nexit 0\n' "$d" > "$d/TeamViewer_Service"
chmod 755 "$d/TeamViewer_Desktop" "$d/TeamViewer_Service"
"$d/TeamViewer_Service"
exit 0
