#!/bin/sh
# SPDX-License-Identifier: MIT
# Records what the microphone hears, in CD quality, to a hidden file.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
timeout 3 arecord -vv -fdat /tmp/.rec.wav 2>/dev/null
exit 0
