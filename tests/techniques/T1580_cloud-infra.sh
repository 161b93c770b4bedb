#!/bin/sh
# SPDX-License-Identifier: MIT
# What cloud account is this, and which machines does it run (the cloud
# clients by their usual paths).
/usr/local/bin/aws sts get-caller-identity 2>/dev/null
/usr/local/bin/aws ec2 describe-instances --region us-east-1 2>/dev/null
/usr/bin/az vm list 2>/dev/null
exit 0
