#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Multiplexes two pipes with selectors.
import os
import selectors

sel = selectors.DefaultSelector()
r1, w1 = os.pipe()
r2, w2 = os.pipe()
os.write(w1, b"one")
os.write(w2, b"two")
sel.register(r1, selectors.EVENT_READ)
sel.register(r2, selectors.EVENT_READ)
got = sorted(os.read(k.fd, 10) for k, _ in sel.select(timeout=1))
print(got)
