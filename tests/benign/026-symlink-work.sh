#!/bin/sh
# SPDX-License-Identifier: MIT
# Symbolic links inside the working directory.
set -eu
cd /work
mkdir -p versions/v1 versions/v2
echo "v1 config" > versions/v1/config
echo "v2 config" > versions/v2/config
ln -sfn versions/v1 current
cat current/config
ln -sfn versions/v2 current
cat current/config
echo "current -> $(readlink current)"
