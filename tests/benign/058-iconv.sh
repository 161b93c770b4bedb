#!/bin/sh
# SPDX-License-Identifier: MIT
# Convert a text between UTF-8 and Latin-1 and back.
set -eu
printf 'caf\303\251 cr\303\250me br\303\273l\303\251e\n' > /tmp/utf8.txt
iconv -f UTF-8 -t ISO-8859-1 /tmp/utf8.txt > /tmp/latin1.txt
echo "utf-8 bytes: $(wc -c < /tmp/utf8.txt), latin-1 bytes: $(wc -c < /tmp/latin1.txt)"
iconv -f ISO-8859-1 -t UTF-8 /tmp/latin1.txt | cmp - /tmp/utf8.txt && echo "round trip ok"
