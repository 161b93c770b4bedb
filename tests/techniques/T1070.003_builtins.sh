#!/bin/sh
# SPDX-License-Identifier: MIT
# Clears the shell's history with builtins right after its work: the
# in-memory list cleared and written over the file.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
bash -c 'cat /etc/passwd > /dev/null; history -c; history -w'
exit 0
