#!/bin/sh
# SPDX-License-Identifier: MIT
# Which libraries the dynamic linker knows, from its cache.
set -eu
/sbin/ldconfig -p 2>/dev/null | head -3 || true
ldd /bin/ls | awk '{ print $1 }' | head -3
