#!/bin/sh
# SPDX-License-Identifier: MIT
set -eu
classify() {
	case $1 in
	*.c|*.h) echo "$1: C source" ;;
	*.py) echo "$1: Python" ;;
	*.tar.gz|*.tgz) echo "$1: tarball" ;;
	*) echo "$1: other" ;;
	esac
}
for f in main.c util.h run.py dist.tar.gz README; do classify "$f"; done
