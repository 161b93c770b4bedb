#!/bin/sh
# SPDX-License-Identifier: MIT
# An admin script that removes an editor nobody uses, when run as root; run
# as a user it says so and changes nothing.
set -u
if apt-get remove -y --purge nano >/dev/null 2>&1; then
	echo "nano removed"
else
	echo "not root: nothing removed"
fi
dpkg --remove --dry-run nano >/dev/null 2>&1 || true
exit 0
