#!/bin/sh
# SPDX-License-Identifier: MIT
# Where a package would come from: apt's policy for one package.
command -v apt-cache > /dev/null || exit 0
apt-cache policy coreutils 2>/dev/null | head -5
apt-config dump 2>/dev/null | grep -c '^APT' > /dev/null
exit 0
