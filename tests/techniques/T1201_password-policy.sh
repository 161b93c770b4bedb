#!/bin/sh
# SPDX-License-Identifier: MIT
# The password policy: ageing, length and complexity rules.
export PATH="$PATH:/usr/sbin:/sbin"
chage -l "$(whoami)" 2>/dev/null
grep -E '^PASS_(MAX|MIN|WARN)|^ENCRYPT_METHOD' /etc/login.defs 2>/dev/null
cat /etc/security/pwquality.conf 2>/dev/null
grep -h pam_pwquality /etc/pam.d/common-password /etc/pam.d/system-auth 2>/dev/null
