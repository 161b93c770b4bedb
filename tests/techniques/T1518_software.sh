#!/bin/sh
# SPDX-License-Identifier: MIT
# What software is installed: packages, and the tools at hand.
dpkg -l | tail -n +6 | wc -l
dpkg-query -W -f '${Package} ${Version}\n' openssh-server sudo apache2 nginx 2>/dev/null
rpm -qa 2>/dev/null
apt list --installed 2>/dev/null | head
for t in gcc python3 perl curl wget nc socat docker kubectl; do command -v "$t"; done
ls /usr/bin /usr/local/bin /opt | wc -l
