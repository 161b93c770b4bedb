#!/bin/sh
# SPDX-License-Identifier: MIT
# Clears the history right after reading the hashes, behind a trap on
# EXIT that looks like a logout set-up: the `history -c` after the act is
# what counts (docs/batch.md, "History cleared: an act or a logout").
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
bash -c 'trap "history -c" EXIT; cat /etc/shadow > /dev/null 2>&1; history -c'
exit 0
