#!/bin/sh
# SPDX-License-Identifier: MIT
# The local groups and who is in the administrative ones.
groups
id -Gn
getent group
cat /etc/group
getent group sudo wheel adm docker
