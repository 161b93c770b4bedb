#!/bin/sh
# SPDX-License-Identifier: MIT
# Records the room through the microphone.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
/usr/bin/arecord -q -d 2 -f cd -t wav /tmp/.a1.wav 2>/dev/null
/usr/bin/parecord --channels=1 /tmp/.a2.wav 2>/dev/null &
sleep 0.3; kill $! 2>/dev/null
ls /dev/snd 2>/dev/null
timeout 1 dd if=/dev/snd/pcmC0D0c of=/tmp/.a3.raw bs=4096 count=64 2>/dev/null
timeout 1 dd if=/dev/dsp of=/tmp/.a4.raw bs=4096 count=64 2>/dev/null
exit 0
