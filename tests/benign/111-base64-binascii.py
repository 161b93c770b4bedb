#!/usr/bin/python3
# SPDX-License-Identifier: MIT
import base64
import binascii

raw = bytes(range(0, 256, 17))
with open("/work/raw.bin", "wb") as f:
    f.write(raw)
with open("/work/raw.bin", "rb") as f:
    enc = base64.b64encode(f.read())
print("base64:", enc.decode())
print("hex:   ", binascii.hexlify(raw, " ").decode())
print("crc32: ", hex(binascii.crc32(raw)))
assert base64.b64decode(enc) == raw
print("urlsafe:", base64.urlsafe_b64encode(b"\xfb\xff\xfe").decode())
