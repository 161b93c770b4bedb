#!/bin/sh
# SPDX-License-Identifier: MIT
echo hello
exit 0
