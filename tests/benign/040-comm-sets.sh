#!/bin/sh
# SPDX-License-Identifier: MIT
# Set operations on two sorted lists.
set -eu
cd /tmp
printf '%s\n' apple banana cherry date | sort > left
printf '%s\n' banana date elderberry fig | sort > right
echo "only left:";  comm -23 left right
echo "only right:"; comm -13 left right
echo "both:";       comm -12 left right
rm -f left right
