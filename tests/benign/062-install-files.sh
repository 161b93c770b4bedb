#!/bin/sh
# SPDX-License-Identifier: MIT
# Stage an installation tree with install(1) into a directory the script owns.
set -eu
src=$(mktemp -d)
dest=/work/stage
trap 'rm -rf "$src"' EXIT
echo "config value" > "$src/app.conf"
echo "documentation" > "$src/README"
install -D -m 0644 "$src/app.conf" "$dest/etc/app/app.conf"
install -D -m 0644 "$src/README" "$dest/share/doc/app/README"
install -d "$dest/var/lib/app"
find "$dest" | sort
stat -c '%a %n' "$dest/etc/app/app.conf"
