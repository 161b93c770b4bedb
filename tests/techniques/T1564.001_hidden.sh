#!/bin/sh
# SPDX-License-Identifier: MIT
# Hides its working files in dot-directories of the shared scratch places,
# some named to look like the system's own.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
for d in "/tmp/.X25-unix" "/dev/shm/.ssh-agent" "/tmp/. " "$HOME/.local/share/.gvfs-meta"; do
	mkdir -p "$d" 2>/dev/null || continue
	cp /bin/true "$d/.kworker" 2>/dev/null
	echo 'pool=stratum' > "$d/.conf" 2>/dev/null
done
exit 0
