#!/bin/sh
# SPDX-License-Identifier: MIT
# A bot's installer picks the build for the machine's architecture and
# checks whether its payload, a tunnel client among others, already runs.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
build=none
if uname -m | grep -q x86_64; then build=amd64
elif uname -m | grep -q aarch64; then build=arm64
elif uname -m | grep -q mips; then build=mips
fi
running=$(ps -ef | grep -v grep | grep -c frpc)
ps -ef | grep -v grep | grep -q apached && running=1
echo "build $build, running $running"
exit 0
