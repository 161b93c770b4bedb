#!/bin/bash
# SPDX-License-Identifier: MIT
# Clears the shell's own command history with the builtin: no program is
# executed for it, only the script's text shows it.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
set -o history
echo "working" > /dev/null
history -c
exit 0
