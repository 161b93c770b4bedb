#!/bin/sh
# SPDX-License-Identifier: MIT
set -eu
printf 'some binary-ish bytes: \001\002\003\377\n' > /tmp/blob.bin
base64 /tmp/blob.bin > /tmp/blob.b64
cat /tmp/blob.b64
base64 -d /tmp/blob.b64 | cmp - /tmp/blob.bin && echo "base64 round trip ok"
