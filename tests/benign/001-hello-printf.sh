#!/bin/sh
# SPDX-License-Identifier: MIT
# The smallest ordinary script: greet and format a few values.
printf 'hello from %s\n' "$(basename "$0")"
printf '%-8s|%5d|%6.2f\n' apples 12 3.5 pears 7 0.25
