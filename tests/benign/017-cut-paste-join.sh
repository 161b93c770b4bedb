#!/bin/sh
# SPDX-License-Identifier: MIT
set -eu
cd /tmp
printf '1:alice\n2:bob\n3:carol\n' > names
printf '1:admin\n2:dev\n3:ops\n' > roles
cut -d: -f2 names > just-names
paste -d' ' just-names roles
join -t: names roles
