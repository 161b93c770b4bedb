#!/bin/sh
# SPDX-License-Identifier: MIT
set -eu
cat > /tmp/doc.txt <<'EOF'
header
BEGIN
keep this
and this
END
footer
EOF
sed -n '/^BEGIN$/,/^END$/p' /tmp/doc.txt
sed '/^BEGIN$/,/^END$/d' /tmp/doc.txt
sed -e '1i\# top' -e '$a\# bottom' /tmp/doc.txt | head -n 2
