#!/bin/sh
# SPDX-License-Identifier: MIT
# Reads /etc/os-release as shell variables to choose a code path per distribution.
set -eu
. /etc/os-release
case "$ID" in
	debian | ubuntu) echo "apt family: $PRETTY_NAME" ;;
	fedora | rhel | centos) echo "dnf family" ;;
	*) echo "other: $ID" ;;
esac
