#!/bin/sh
# SPDX-License-Identifier: MIT
# Picks the newest of several versions, as an updater does, with sort -V and dpkg's comparison.
set -eu
printf '1.10.0\n1.9.3\n1.10.0-rc1\n2.0.0~beta\n1.2\n' | sort -V | tail -1
if command -v dpkg > /dev/null; then
	dpkg --compare-versions 2.0.0~beta lt 2.0.0 && echo 'tilde sorts first'
fi
