#!/bin/sh
# SPDX-License-Identifier: MIT
# every process forks for ever; one whose fork fails waits: the task limit must stop it
exec perl -e 'while (1) { defined(fork()) or sleep 600 }'
