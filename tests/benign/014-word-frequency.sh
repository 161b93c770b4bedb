#!/bin/sh
# SPDX-License-Identifier: MIT
# The classic word-frequency pipeline over a text the script writes.
set -eu
cat > /tmp/text.txt <<'EOF'
The quick brown fox jumps over the lazy dog.
The dog sleeps; the fox runs. A fox is quick, a dog is lazy.
EOF
tr -cs 'A-Za-z' '\n' < /tmp/text.txt | tr 'A-Z' 'a-z' | grep -v '^$' |
	sort | uniq -c | sort -rn | head -n 5
echo "words: $(tr -cs 'A-Za-z' '\n' < /tmp/text.txt | grep -c .)"
