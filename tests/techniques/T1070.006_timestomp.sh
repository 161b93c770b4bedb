#!/bin/sh
# SPDX-License-Identifier: MIT
# Makes the dropped files look as old as the system's own: times copied
# from /bin/ls, or set to a date long before the intrusion.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
mkdir -p "$HOME/.cache"
cp /bin/true "$HOME/.cache/.sysupd"
touch -r /bin/ls "$HOME/.cache/.sysupd"
echo '*/5 * * * * /work/.cache/.sysupd' > /tmp/.cronfrag
touch -d '2021-03-14 04:12:07' /tmp/.cronfrag
touch -a -m -t 202001010000 "$HOME/.cache"
exit 0
