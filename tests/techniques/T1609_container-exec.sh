#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs commands inside running containers through their clients.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
timeout 5 docker exec -i web sh -c 'cat /etc/shadow' < /dev/null 2>/dev/null
timeout 5 kubectl exec -i deploy/api -- sh -c 'env' < /dev/null 2>/dev/null
/usr/bin/crictl exec -it 3f2a sh 2>/dev/null
exit 0
