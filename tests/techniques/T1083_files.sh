#!/bin/sh
# SPDX-License-Identifier: MIT
# Walks the file system looking for what is there: home directories,
# configuration and interesting files.
ls -la / /home /root /opt /srv /tmp "$HOME" 2>/dev/null
ls -laR "$HOME" /etc 2>/dev/null
find / -maxdepth 3 \( -name '*.conf' -o -name '*.bak' -o -name '*.sql' -o -name '*.log' \) 2>/dev/null
find / -maxdepth 2 -type d -writable 2>/dev/null
