#!/bin/sh
# SPDX-License-Identifier: MIT
# Encrypts a file of its own with a passphrase and decrypts it back, in a private keyring.
set -eu
command -v gpg > /dev/null || exit 0
export GNUPGHOME=/work/gnupg
mkdir -p "$GNUPGHOME" && chmod 700 "$GNUPGHOME"
echo 'notes' > /work/notes.txt
gpg --batch --yes --pinentry-mode loopback --passphrase pw -c -o /work/notes.gpg /work/notes.txt 2>/dev/null
gpg --batch --yes --pinentry-mode loopback --passphrase pw -d /work/notes.gpg 2>/dev/null
gpgconf --kill all 2>/dev/null || true
