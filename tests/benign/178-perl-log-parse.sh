#!/bin/sh
# SPDX-License-Identifier: MIT
# Parses a web server's access log with Perl: hits per status.
set -eu
cd /work
printf '1.2.3.4 - - [x] "GET / HTTP/1.1" 200 10\n1.2.3.5 - - [x] "GET /a HTTP/1.1" 404 0\n1.2.3.4 - - [x] "GET /b HTTP/1.1" 200 5\n' > access.log
perl -ne '$c{$1}++ if /" (\d{3}) /; END { print "$_ $c{$_}\n" for sort keys %c }' access.log
