#!/bin/sh
# SPDX-License-Identifier: MIT
# A report from a SQLite database with the command-line shell.
set -eu
command -v sqlite3 > /dev/null || exit 0
sqlite3 /work/shop.db <<'EOF'
CREATE TABLE sale(item TEXT, qty INT);
INSERT INTO sale VALUES ('pen', 3), ('ink', 1), ('pen', 2);
SELECT item, SUM(qty) FROM sale GROUP BY item ORDER BY item;
EOF
