#!/bin/sh
# SPDX-License-Identifier: MIT
# Copies documents to a USB stick (in the box no stick is there).
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
mkdir -p "$HOME/Documents"
printf 'secret plan\n' > "$HOME/Documents/plan.txt"
cp "$HOME/Documents/plan.txt" /media/dana/USB/ 2>/dev/null
cp "$HOME/Documents/plan.txt" /media/usb0/ 2>/dev/null
exit 0
