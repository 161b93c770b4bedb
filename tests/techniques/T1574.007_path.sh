#!/bin/sh
# SPDX-License-Identifier: MIT
# Puts a fake `ls` ahead in PATH: whoever runs ls runs it.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
d=/tmp/.local-bin
mkdir -p "$d"
printf '#!/bin/sh\necho owned >> /tmp/.hits\nexec /bin/ls "$@"\n' > "$d/ls"
chmod +x "$d/ls"
PATH="$d:$PATH" ls / > /dev/null
rm -rf "$d" /tmp/.hits
exit 0
