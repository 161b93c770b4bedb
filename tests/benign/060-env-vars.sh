#!/bin/sh
# SPDX-License-Identifier: MIT
# Inspect and pass environment variables.
set -eu
echo "HOME=$HOME"
echo "PATH=$PATH"
env | cut -d= -f1 | sort | head -n 10
GREETING=hi env | grep '^GREETING='
env -i PATH=/usr/bin sh -c 'echo "clean environment has $(env | wc -l) variable(s)"'
