#!/usr/bin/python3
# SPDX-License-Identifier: MIT
import secrets
import uuid

token = secrets.token_hex(16)
print("token length", len(token))
u = uuid.uuid4()
print("uuid version", u.version)
print("name-based uuid", uuid.uuid5(uuid.NAMESPACE_DNS, "example.org"))
assert secrets.compare_digest("abc", "abc")
