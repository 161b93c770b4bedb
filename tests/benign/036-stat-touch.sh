#!/bin/sh
# SPDX-License-Identifier: MIT
set -eu
cd /tmp
touch marker
printf 'twelve bytes' > sized
stat -c '%n %s bytes, mode %a' marker sized
if [ "$(stat -c %Y sized)" -ge "$(stat -c %Y marker)" ]; then
	echo "sized is not older than marker"
fi
rm -f marker sized
