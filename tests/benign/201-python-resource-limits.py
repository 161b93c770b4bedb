#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Reads its own resource limits and usage.
import resource

soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
print("files", soft, hard)
print("maxrss", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss > 0)
