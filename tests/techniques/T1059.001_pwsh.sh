#!/bin/sh
# SPDX-License-Identifier: MIT
# PowerShell on Linux: a command through pwsh, by its usual path (absent
# here: the attempt is still an exec).
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
/usr/bin/pwsh -NoProfile -NonInteractive -Command 'Get-Process | Select-Object -First 3' 2>/dev/null
/opt/microsoft/powershell/7/pwsh -c 'whoami' 2>/dev/null
exit 0
