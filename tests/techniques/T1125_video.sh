#!/bin/sh
# SPDX-License-Identifier: MIT
# Takes a picture through the webcam.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
/usr/bin/ffmpeg -loglevel quiet -f v4l2 -i /dev/video0 -frames:v 1 /tmp/.cam.jpg 2>/dev/null
/usr/bin/fswebcam -q --no-banner /tmp/.cam2.jpg 2>/dev/null
timeout 1 dd if=/dev/video0 of=/tmp/.cam.raw bs=65536 count=4 2>/dev/null
exit 0
