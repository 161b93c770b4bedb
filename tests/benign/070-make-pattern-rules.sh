#!/bin/sh
# SPDX-License-Identifier: MIT
# make -n, make, then make -q to check that everything is up to date.
set -eu
d=/work/pattern
mkdir -p "$d" && cd "$d"
for n in alpha beta gamma; do echo "content of $n" > "$n.txt"; done
printf '%s\n' \
	'SRCS := $(wildcard *.txt)' \
	'OUTS := $(SRCS:.txt=.upper)' \
	'all: $(OUTS)' \
	'%.upper: %.txt' \
	'	tr a-z A-Z < $< > $@' \
	'.PHONY: all' > Makefile
make -n | sort
make -s -j2
cat alpha.upper
make -q && echo "up to date"
