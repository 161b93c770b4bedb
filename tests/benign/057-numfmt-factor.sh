#!/bin/sh
# SPDX-License-Identifier: MIT
set -eu
for n in 1000 1048576 123456789; do numfmt --to=iec "$n"; done
factor 360 1001 65537
