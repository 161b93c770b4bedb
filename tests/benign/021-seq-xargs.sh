#!/bin/sh
# SPDX-License-Identifier: MIT
set -eu
seq 1 12 | xargs -n 4 echo row:
seq -w 1 3 | xargs -I{} echo "item-{}"
echo "sum: $(seq 1 100 | paste -sd+ | bc)"
