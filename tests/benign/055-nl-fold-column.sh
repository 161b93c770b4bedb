#!/bin/sh
# SPDX-License-Identifier: MIT
set -eu
text="This sentence is long enough that folding it at a narrow width gives several lines of output."
echo "$text" | fold -s -w 30 | nl
printf 'name size\nalpha 10\nbetastring 2000\n' | column -t
