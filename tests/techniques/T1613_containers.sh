#!/bin/sh
# SPDX-License-Identifier: MIT
# Which containers and pods run here.
docker ps -a 2>/dev/null
docker images 2>/dev/null
timeout 5 kubectl get pods --all-namespaces --request-timeout=2s 2>/dev/null
/usr/local/bin/crictl ps 2>/dev/null
ls /var/run/docker.sock /run/containerd 2>/dev/null
cat /var/run/secrets/kubernetes.io/serviceaccount/namespace 2>/dev/null
exit 0
