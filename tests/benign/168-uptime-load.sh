#!/bin/sh
# SPDX-License-Identifier: MIT
# The machine's uptime and load, as a status line.
set -eu
uptime
cut -d' ' -f1-3 /proc/loadavg
nproc
