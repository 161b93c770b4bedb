#!/bin/sh
# SPDX-License-Identifier: MIT
# Option parsing with getopts inside a function.
set -eu
parse() {
	verbose=0 name=world count=1
	OPTIND=1
	while getopts vn:c: opt; do
		case $opt in
		v) verbose=1 ;;
		n) name=$OPTARG ;;
		c) count=$OPTARG ;;
		*) return 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	echo "verbose=$verbose name=$name count=$count rest=$*"
}
parse -v -n sandbox -c 3 extra args
parse file.txt
