#!/bin/sh
# SPDX-License-Identifier: MIT
# A dropper carries its second stage as base64 text, a whole shell script
# with its #! line, decoded and piped to a shell in one command line.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
stage=$(printf '#!/bin/sh\nid -un\nuname -m\n' | base64 -w0)
sh -c "echo $stage | base64 -d | sh"
exit 0
