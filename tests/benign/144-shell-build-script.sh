#!/bin/sh
# SPDX-License-Identifier: MIT
# A configure-style script that probes for the compiler and writes a config header.
set -eu
mkdir -p /work/cfg && cd /work/cfg
: > config.h
for h in stdio.h stdlib.h unistd.h nosuch.h; do
	if printf '#include <%s>\nint main(void){return 0;}\n' "$h" | gcc -x c -o /dev/null - 2>/dev/null; then
		echo "#define HAVE_$(echo "$h" | tr 'a-z.' 'A-Z_') 1" >> config.h
	fi
done
cat config.h
