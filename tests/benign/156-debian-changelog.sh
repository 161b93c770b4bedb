#!/bin/sh
# SPDX-License-Identifier: MIT
# A package's changelog entry written and its newest version read back.
set -eu
cd /work
cat > changelog <<'EOF'
tool (1.2-1) unstable; urgency=medium

  * New upstream release.

 -- Dev <dev@example.org>  Mon, 01 Jan 2024 12:00:00 +0000

tool (1.1-1) unstable; urgency=medium

  * Fix a crash.

 -- Dev <dev@example.org>  Mon, 01 Dec 2023 12:00:00 +0000
EOF
sed -n '1s/.*(\(.*\)).*/\1/p' changelog
grep -c '^ --' changelog
