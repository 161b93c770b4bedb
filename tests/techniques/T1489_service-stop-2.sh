#!/bin/sh
# SPDX-License-Identifier: MIT
# Before encrypting, stop the database and web services that hold files
# open, through sudo.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
for s in mysql postgresql nginx; do
	sudo systemctl stop "$s" 2>/dev/null
done
sudo service apache2 stop 2>/dev/null
exit 0
