#!/bin/sh
# SPDX-License-Identifier: MIT
# The system's services: units, init scripts, and which are running.
export PATH="$PATH:/usr/sbin:/sbin"
systemctl list-units --type=service --all --no-pager 2>/dev/null
service --status-all 2>/dev/null
ls /etc/init.d /etc/systemd/system /lib/systemd/system 2>/dev/null | head -50
