#!/bin/sh
# SPDX-License-Identifier: MIT
# A Tcl script: procedures and lists.
set -eu
command -v tclsh > /dev/null || exit 0
printf 'proc sq {x} { expr {$x * $x} }\nputs [lmap i {1 2 3} { sq $i }]\n' > /work/s.tcl
tclsh /work/s.tcl
