#!/bin/sh
# SPDX-License-Identifier: MIT
# Generate a key=value config and read it back line by line.
set -eu
conf=/work/settings.ini
cat > "$conf" <<EOF
# generated $(date +%F)
workers=4
queue=jobs
retries=3
EOF
while IFS='=' read -r key value; do
	case $key in
	'#'*|'') continue ;;
	esac
	echo "setting $key is '$value'"
done < "$conf"
