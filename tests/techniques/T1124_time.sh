#!/bin/sh
# SPDX-License-Identifier: MIT
# The system's time and time zone.
date
date -u +%s
timedatectl 2>/dev/null
cat /etc/timezone 2>/dev/null
ls -l /etc/localtime 2>/dev/null
uptime
