#!/bin/sh
# SPDX-License-Identifier: MIT
# The Python packages installed, listed the way a requirements file records them.
set -eu
command -v pip3 > /dev/null || exit 0
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INDEX=1
timeout 20 pip3 freeze 2>/dev/null | head -5 > /work/requirements.txt || true
wc -l < /work/requirements.txt
