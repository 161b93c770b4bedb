#!/bin/sh
# SPDX-License-Identifier: MIT
# A Debian package built from a staging tree with dpkg-deb, then inspected.
set -eu
command -v dpkg-deb > /dev/null || exit 0
p=/work/hello_1.0_all
mkdir -p "$p/DEBIAN" "$p/usr/share/hello"
cat > "$p/DEBIAN/control" <<'EOF'
Package: hello-sbx
Version: 1.0
Architecture: all
Maintainer: Dev <dev@example.org>
Description: a test package
EOF
echo hi > "$p/usr/share/hello/greeting"
dpkg-deb --root-owner-group --build "$p" /work/hello.deb > /dev/null
dpkg-deb -I /work/hello.deb | grep Package
dpkg-deb -c /work/hello.deb | wc -l
