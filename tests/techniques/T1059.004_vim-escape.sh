#!/bin/sh
# SPDX-License-Identifier: MIT
# Escapes a restricted editor session: vim runs a shell command of the
# operator's (its ':!' command), then quits.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
timeout 5 vim -u NONE -es -c ':!/bin/sh -c id' -c ':qa!' </dev/null >/dev/null 2>&1
exit 0
