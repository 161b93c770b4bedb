#!/bin/sh
# SPDX-License-Identifier: MIT
# Checks which monitoring agents run before acting: the process list
# filtered for the usual endpoint, log-shipping and scanner daemons.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
ps -eo comm 2>/dev/null | grep -E 'falcond|osqueryd|cbagentd|auditbeat|filebeat|packetbeat|nessusd|td-agent' >/dev/null
exit 0
