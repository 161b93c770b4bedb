#!/bin/sh
# SPDX-License-Identifier: MIT
# Stops the database before it encrypts it, through sudo.
# Depends on the sudo stand-in for the sudo exec; systemctl runs either way.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
sudo -n systemctl stop postgresql 2>/dev/null || systemctl stop postgresql 2>/dev/null
exit 0
