#!/bin/sh
# SPDX-License-Identifier: MIT
# A Python virtual environment made without pip, and a module run inside it.
set -eu
python3 -m venv --without-pip /work/venv 2>/dev/null || exit 0
/work/venv/bin/python -c 'import sys; print(sys.prefix)'
