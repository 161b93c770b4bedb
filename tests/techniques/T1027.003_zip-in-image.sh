#!/bin/bash
# SPDX-License-Identifier: MIT
# Hides an archive of stolen notes inside a picture: appends a zip to a
# JPEG (the viewer still shows the picture), embeds a file in a cover image
# with steghide, and later takes both out again.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
mkdir -p /tmp/.pics && cd /tmp/.pics || exit 0
printf '\377\330\377\340\000\020JFIF\000' > cover.jpg
cp /etc/hostname notes.txt 2>/dev/null || echo notes > notes.txt
zip -q notes.zip notes.txt
cat cover.jpg notes.zip > holiday.jpg
unzip holiday.jpg -d out >/dev/null 2>&1
steghide embed -cf cover.jpg -ef notes.txt -p secret -q 2>/dev/null
steghide extract -sf cover.jpg -p secret -q 2>/dev/null
exit 0
