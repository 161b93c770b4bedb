#!/bin/sh
# SPDX-License-Identifier: MIT
set -eu
printf 'ABC\n\001\002' > /tmp/bytes
od -An -tx1 /tmp/bytes
od -c /tmp/bytes
hexdump -C /tmp/bytes
