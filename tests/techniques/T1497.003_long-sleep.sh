#!/bin/sh
# SPDX-License-Identifier: MIT
# Sleeps longer than a sandbox waits before it does anything.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
sleep 3600
id > /dev/null
exit 0
