#!/bin/sh
# SPDX-License-Identifier: MIT
# An interactive shell whose start-up file, kept in the project, clears
# the history when the shell exits: as a ~/.bash_logout holding
# `history -c` does.
set -eu
d=/work/shellcfg
mkdir -p "$d"
cat > "$d/rc" <<'EOF'
HISTFILE=/work/shellcfg/history
PS1='$ '
trap 'history -c' EXIT
EOF
printf 'echo in the shell\nls /work > /dev/null\nexit\n' | bash --rcfile "$d/rc" -i 2>/dev/null
exit 0
