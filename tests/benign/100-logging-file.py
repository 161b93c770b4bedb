#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Log to a file and to the console, then read the file back."""
import logging

log = logging.getLogger("app")
log.setLevel(logging.DEBUG)
fh = logging.FileHandler("/work/app.log", mode="w")
fh.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
log.addHandler(fh)
sh = logging.StreamHandler()
sh.setLevel(logging.WARNING)
log.addHandler(sh)

log.debug("starting")
log.info("processing %d items", 3)
log.warning("one item was skipped")
fh.close()
with open("/work/app.log") as f:
    lines = f.read().splitlines()
print(len(lines), "lines logged:", lines)
