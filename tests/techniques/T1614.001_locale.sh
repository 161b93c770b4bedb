#!/bin/sh
# SPDX-License-Identifier: MIT
# The system's language and keyboard: some samples spare some countries.
locale
localectl status 2>/dev/null
cat /etc/default/locale /etc/locale.conf /etc/vconsole.conf 2>/dev/null
cat /etc/default/keyboard 2>/dev/null
