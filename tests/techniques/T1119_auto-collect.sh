#!/bin/sh
# SPDX-License-Identifier: MIT
# Collects every document it finds into one place, by a search.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
mkdir -p "$HOME/Documents" /tmp/.c
printf 'q3 numbers\n' > "$HOME/Documents/budget.xlsx"
find "$HOME" -name '*.xlsx' -exec cp {} /tmp/.c/ \; 2>/dev/null
rm -rf /tmp/.c
exit 0
