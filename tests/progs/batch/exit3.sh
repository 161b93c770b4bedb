#!/bin/sh
# SPDX-License-Identifier: MIT
exit 3
