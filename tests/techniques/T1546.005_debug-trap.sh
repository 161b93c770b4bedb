#!/bin/bash
# SPDX-License-Identifier: MIT
# Hooks every command the shell runs with a DEBUG trap that copies it to a
# hidden file: a keylogger of the shell's own, made of builtins.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
trap 'printf "%s\n" "$BASH_COMMAND" >> /tmp/.cmds' DEBUG
true
echo done > /dev/null
exit 0
