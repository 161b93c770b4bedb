#!/bin/sh
# SPDX-License-Identifier: MIT
# The README's first command: installs what is missing, builds, and runs a
# real program (python3) in the standard box, with its report.
set -eu
cd "$(dirname "$0")/.."
scripts/deps.sh
make -s all
exec ./sbxlua run.lua --verbose /usr/bin/python3 -c \
	'import os, platform; print("hello from", platform.node(), "as uid", os.getuid()); print(sorted(os.listdir("/")))'
