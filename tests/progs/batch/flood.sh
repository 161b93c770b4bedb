#!/bin/sh
# SPDX-License-Identifier: MIT
# writes until the output limit stops it
exec yes flood
