#!/bin/sh
# SPDX-License-Identifier: MIT
# Asks the container platform for secrets: the pod's service account
# token, the Docker socket, the cluster's API.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
cat /var/run/secrets/kubernetes.io/serviceaccount/token 2>/dev/null
curl -sm 3 --unix-socket /var/run/docker.sock http://localhost/containers/json 2>/dev/null
timeout 5 kubectl get secrets -A 2>/dev/null
exit 0
