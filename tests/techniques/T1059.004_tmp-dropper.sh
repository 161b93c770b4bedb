#!/bin/sh
# SPDX-License-Identifier: MIT
# A dropper: writes its second stage under /tmp and starts it with nohup
# so that it outlives the session; the stage runs its commands through a
# shell of its own.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
d=/tmp/.ICE-unix-; mkdir -p $d
cat > $d/.x <<'STAGE'
#!/bin/sh
sh -c 'id; uname -a' > /dev/null 2>&1
STAGE
chmod +x $d/.x
nohup $d/.x > /dev/null 2>&1 &
wait $!
rm -rf $d
exit 0
