#!/bin/sh
# SPDX-License-Identifier: MIT
# Edit a configuration file in place with sed.
set -eu
cfg=/work/app.conf
cat > "$cfg" <<'EOF'
# application settings
port = 8080
debug = true
name = demo
EOF
sed -i -e 's/^port = .*/port = 9090/' -e 's/^debug = true/debug = false/' "$cfg"
sed -n '/^[^#]/p' "$cfg"
grep -q '^port = 9090$' "$cfg"
