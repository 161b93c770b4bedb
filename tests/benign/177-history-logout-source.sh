#!/bin/sh
# SPDX-License-Identifier: MIT
# A shell that sources its own logout script at exit, which forgets the
# session's history and empties its own history file.
set -eu
d=/work/logout
mkdir -p "$d"
printf 'history -c\n: > /work/logout/history\n' > "$d/logout.sh"
bash -c 'HISTFILE=/work/logout/history; trap ". /work/logout/logout.sh" EXIT; echo session'
[ ! -s "$d/history" ]
