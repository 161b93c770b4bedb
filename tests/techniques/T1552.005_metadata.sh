#!/bin/sh
# SPDX-License-Identifier: MIT
# Asks the cloud's instance metadata service for the role's keys.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
curl -fsm 3 http://169.254.169.254/latest/meta-data/iam/security-credentials/ 2>/dev/null
curl -fsm 3 -H 'Metadata-Flavor: Google' http://metadata.google.internal/computeMetadata/v1/instance/service-accounts/default/token 2>/dev/null
exit 0
