#!/bin/sh
# SPDX-License-Identifier: MIT
# Edits a file non-interactively with ed.
set -eu
command -v ed > /dev/null || exit 0
printf 'alpha\nbeta\ngamma\n' > /work/e.txt
printf '2d\n$a\ndelta\n.\nw\nq\n' | ed -s /work/e.txt
cat /work/e.txt
