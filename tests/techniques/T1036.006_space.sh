#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs a program whose name ends in a space, so it looks like a text
# file.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
cp /usr/bin/id "/tmp/notes.txt "
"/tmp/notes.txt " > /dev/null
rm -f "/tmp/notes.txt "
exit 0
