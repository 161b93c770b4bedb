#!/bin/sh
# SPDX-License-Identifier: MIT
# Which security software watches the host: endpoint agents' processes,
# the audit daemon, AppArmor and SELinux.
export PATH="$PATH:/usr/sbin:/sbin"
ps aux | grep -iE 'falcon|crowdstrike|sentinel|cbagent|carbonblack|wazuh|ossec|osquery|clamd|auditd|sysdig|falco' | grep -v grep
systemctl status auditd apparmor falcon-sensor 2>/dev/null | grep -E 'Loaded|Active'
/usr/sbin/aa-status 2>/dev/null
/usr/sbin/getenforce 2>/dev/null
ls /opt/CrowdStrike /opt/sentinelone /var/ossec /etc/apparmor.d 2>/dev/null
cat /sys/kernel/security/lsm 2>/dev/null
