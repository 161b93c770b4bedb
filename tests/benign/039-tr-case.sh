#!/bin/sh
# SPDX-License-Identifier: MIT
set -eu
echo "Mixed Case Text" | tr '[:lower:]' '[:upper:]'
echo "hello world" | tr -d 'lo'
echo "a  lot   of    spaces" | tr -s ' '
echo "rot13: $(echo 'Hello' | tr 'A-Za-z' 'N-ZA-Mn-za-m')"
