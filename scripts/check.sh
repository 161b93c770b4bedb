#!/bin/sh
# SPDX-License-Identifier: MIT
# The README's test command: installs what is missing, builds, lints, and
# runs every suite as root and again as an unprivileged user.
set -eu
cd "$(dirname "$0")/.."
scripts/deps.sh
exec make check WERROR=-Werror
