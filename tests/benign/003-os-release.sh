#!/bin/sh
# SPDX-License-Identifier: MIT
# Print the distribution name, from whichever os-release file exists.
set -eu
for f in /etc/os-release /usr/lib/os-release; do
	if [ -r "$f" ]; then
		. "$f"
		echo "distribution: ${PRETTY_NAME:-unknown} (from $f)"
		exit 0
	fi
done
echo "distribution: unknown"
