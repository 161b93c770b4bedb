#!/bin/sh
# SPDX-License-Identifier: MIT
# Formats a CSV as an aligned table.
set -eu
printf 'name,qty,price\npen,3,1.50\nnotebook,10,2.25\n' > /work/t.csv
column -s, -t < /work/t.csv
