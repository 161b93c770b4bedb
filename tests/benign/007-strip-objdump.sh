#!/bin/sh
# SPDX-License-Identifier: MIT
# Inspect a compiled binary: sizes before and after strip, headers, code.
set -eu
cd /tmp
cat > tiny.c <<'EOF'
int square(int x) { return x * x; }
int main(void) { return square(3) - 9; }
EOF
gcc -O2 -g -o tiny tiny.c
before=$(stat -c %s tiny)
strip tiny
after=$(stat -c %s tiny)
echo "size: $before -> $after"
readelf -h tiny | grep -E 'Class|Machine|Type'
objdump -d tiny | head -n 20
./tiny
rm -f tiny tiny.c
