#!/bin/bash
# SPDX-License-Identifier: MIT
# Keeps the session's commands out of the history file with variables and
# a shell option alone (builtins: no exec shows them).
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
export HISTCONTROL=ignoreboth
unset HISTFILE
set +o history
echo quiet > /dev/null
exit 0
