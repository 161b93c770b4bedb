#!/bin/sh
# SPDX-License-Identifier: MIT
# Where in the world is the host: asks a geolocation service.
curl -fsm 3 https://ipinfo.io/json 2>/dev/null
curl -fsm 3 http://ip-api.com/json 2>/dev/null
exit 0
