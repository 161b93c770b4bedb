#!/bin/sh
# SPDX-License-Identifier: MIT
# A stage run through the shell's own builtins: a command built in a
# variable and eval'd, a dropped script sourced with `.`, and the last
# stage exec'd in place of the shell (no new process for the builtins).
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
stage=/tmp/stage.$$
printf 'uname -a\nid\n' > "$stage"
cmd="printf"; arg='%s\n'
eval "$cmd '$arg' started"
. "$stage"
sh "$stage"
rm -f "$stage"
exec sh -c 'echo stage done; exit 0'
