#!/bin/sh
# SPDX-License-Identifier: MIT
# Gives the user root without a password through OpenBSD's doas, which
# some Linux hosts use in place of sudo.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
echo "permit nopass $(id -un) as root" > /etc/doas.conf 2>/dev/null
exit 0
