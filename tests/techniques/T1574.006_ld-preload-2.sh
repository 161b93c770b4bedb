#!/bin/sh
# SPDX-License-Identifier: MIT
# The system-wide form of the hook: the library copied next to the real
# ones and named in /etc/ld.so.preload, so every dynamic program loads it.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
lib=/tmp/.libsystemd-shim.so
cp /usr/lib/x86_64-linux-gnu/libz.so.1 "$lib"
cp "$lib" /usr/lib/x86_64-linux-gnu/libsystemd-shim.so 2>/dev/null &&
	lib=/usr/lib/x86_64-linux-gnu/libsystemd-shim.so
echo "$lib" >> /etc/ld.so.preload 2>/dev/null
exit 0
