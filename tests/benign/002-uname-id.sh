#!/bin/sh
# SPDX-License-Identifier: MIT
# Where am I running? Discovery only, printed for the log.
set -eu
echo "kernel: $(uname -s) $(uname -m)"
echo "uid: $(id -u) gid: $(id -g)"
echo "host: $(hostname)"
