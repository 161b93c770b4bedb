#!/bin/sh
# SPDX-License-Identifier: MIT
# Write a helper script, make it executable and run it.
set -eu
cat > /work/helper.sh <<'EOF'
#!/bin/sh
echo "helper called with $# argument(s): $*"
EOF
chmod +x /work/helper.sh
/work/helper.sh one two
