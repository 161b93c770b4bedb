#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs its own root certificate, to read TLS traffic.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
printf -- '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n' > /tmp/ca.crt
cp /tmp/ca.crt /usr/local/share/ca-certificates/corp-proxy.crt 2>/dev/null
/usr/sbin/update-ca-certificates 2>/dev/null
rm -f /tmp/ca.crt
exit 0
