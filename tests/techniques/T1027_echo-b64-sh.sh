#!/bin/sh
# SPDX-License-Identifier: MIT
# An encoded command decoded and fed to a shell: echo is a builtin, the
# decoder and the shell are not.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
X=aWQgPiAvZGV2L251bGwK
echo "$X" | base64 -d | sh
exit 0
