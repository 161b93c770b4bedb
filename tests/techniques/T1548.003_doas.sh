#!/bin/sh
# SPDX-License-Identifier: MIT
# Elevation through doas, sudo's small cousin on BSD-minded and Alpine
# hosts: check that it asks for nothing, then run commands as root.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
if doas -n true 2>/dev/null; then
	doas id > /dev/null 2>&1
	doas -u root sh -c 'cat /etc/shadow' > /dev/null 2>&1
fi
exit 0
