#!/bin/sh
# SPDX-License-Identifier: MIT
# A small function library, sourced by the main script.
set -eu
lib=/work/lib.sh
cat > "$lib" <<'EOF'
log() { printf '[%s] %s\n' "$1" "$2"; }
max() { if [ "$1" -gt "$2" ]; then echo "$1"; else echo "$2"; fi; }
join_by() { sep=$1; shift; out=$1; shift; for x in "$@"; do out="$out$sep$x"; done; echo "$out"; }
is_number() { case $1 in ''|*[!0-9]*) return 1 ;; *) return 0 ;; esac; }
EOF
. "$lib"
log info "library loaded"
log info "max of 7 and 12 is $(max 7 12)"
log info "joined: $(join_by , a b c)"
if is_number 42 && ! is_number 4x2; then log info "is_number works"; fi
