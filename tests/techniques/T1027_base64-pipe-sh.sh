#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs a command that only exists encoded: printed, decoded and piped into
# a second shell, which reads it on its stdin.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
printf '%s' 'aWQgPiAvZGV2L251bGw7IHVuYW1lIC1hID4gL2Rldi9udWxsCg==' | base64 -d | sh
exit 0
