#!/bin/sh
# SPDX-License-Identifier: MIT
# every process forks for ever; one whose fork fails waits a second (a short
# wait: the analysis box skips a long one) and forks again: the task limit
# must stop it
exec perl -e 'while (1) { defined(fork()) or sleep 1 }'
