#!/bin/sh
# SPDX-License-Identifier: MIT
# Who am I running as, and who else is logged in.
whoami
id
logname 2>/dev/null
who
w 2>/dev/null
