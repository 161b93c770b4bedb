#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs a browser extension in the user's Firefox profile and in
# Chrome's list of external extensions.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
p="$HOME/.mozilla/firefox/k3x9.default-release/extensions"
mkdir -p "$p"
printf 'PK\003\004' > "$p/helper@addons.example.xpi"
c="$HOME/.config/google-chrome/Default/Extensions/abcdefghijklmnopabcdefghijklmnop"
mkdir -p "$c"
printf '{"manifest_version":3,"name":"helper"}' > "$c/manifest.json"
exit 0
