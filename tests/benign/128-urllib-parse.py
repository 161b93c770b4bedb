#!/usr/bin/python3
# SPDX-License-Identifier: MIT
from urllib.parse import parse_qs, quote, urlencode, urljoin, urlparse

u = urlparse("https://example.org:8443/search/results?q=sand+box&page=2#top")
print(u.scheme, u.hostname, u.port, u.path, u.fragment)
print(parse_qs(u.query))
print(urlencode({"q": "a&b", "lang": "en"}))
print(quote("/path with spaces/ü"))
print(urljoin("https://example.org/docs/guide/", "../api/index.html"))
