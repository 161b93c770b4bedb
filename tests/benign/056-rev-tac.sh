#!/bin/sh
# SPDX-License-Identifier: MIT
set -eu
seq 1 5 | tac | paste -sd' '
echo "stressed" | rev
printf 'first\nsecond\nthird\n' > /tmp/lines && tac /tmp/lines && rm /tmp/lines
