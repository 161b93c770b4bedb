#!/bin/sh
# SPDX-License-Identifier: MIT
# A stager that keeps its Python payload base64-encoded on the command
# line, decoded and executed in memory by a one-line Python command.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
python3 -c "import base64;exec(base64.b64decode('aW1wb3J0IG9zCm9zLnN5c3RlbSgiaWQgPiAvZGV2L251bGwiKQo=').decode())"
exit 0
