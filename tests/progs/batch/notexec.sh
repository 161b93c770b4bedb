#!/bin/sh
# SPDX-License-Identifier: MIT
echo not executable
