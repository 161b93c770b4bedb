#!/bin/sh
# SPDX-License-Identifier: MIT
# Which storage buckets can this account see (the cloud clients by their
# usual paths).
/usr/local/bin/aws s3 ls 2>/dev/null
/usr/local/bin/aws s3api list-buckets 2>/dev/null
/usr/bin/az storage account list 2>/dev/null
exit 0
