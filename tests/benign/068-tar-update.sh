#!/bin/sh
# SPDX-License-Identifier: MIT
# Append to an uncompressed tar and list it with details.
set -eu
cd /work
mkdir -p bundle
echo one > bundle/one.txt
tar -cf bundle.tar bundle/one.txt
echo two > bundle/two.txt
tar -rf bundle.tar bundle/two.txt
tar -tvf bundle.tar | awk '{print $3, $6}'
tar -xOf bundle.tar bundle/two.txt
