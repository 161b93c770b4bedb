#!/bin/sh
# SPDX-License-Identifier: MIT
# Which files a package installed, and which package owns a file.
set -eu
command -v dpkg > /dev/null || exit 0
dpkg -L coreutils 2>/dev/null | grep -c /bin/ || true
dpkg -S /bin/ls 2>/dev/null || true
