#!/bin/sh
# SPDX-License-Identifier: MIT
# Splits the data to send into small pieces.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
head -c 5000 /dev/urandom > /tmp/data
split -b 1024 /tmp/data /tmp/part_
rm -f /tmp/data /tmp/part_*
exit 0
