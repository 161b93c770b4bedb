#!/bin/sh
# SPDX-License-Identifier: MIT
# A program stored as a picture: an ELF with a .jpg name, run.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
mkdir -p "$HOME/.cache/thumbnails"
cp /usr/bin/id "$HOME/.cache/thumbnails/cover.jpg"
chmod +x "$HOME/.cache/thumbnails/cover.jpg"
"$HOME/.cache/thumbnails/cover.jpg" > /dev/null
exit 0
