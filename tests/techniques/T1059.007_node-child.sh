#!/bin/sh
# SPDX-License-Identifier: MIT
# JavaScript through node: a one-liner that runs a command with
# child_process and writes what it learnt to a file.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
command -v node > /dev/null || exit 0
node -e 'const cp = require("child_process"); const out = cp.execSync("id").toString(); require("fs").writeFileSync("/tmp/n.out", out);'
rm -f /tmp/n.out
exit 0
