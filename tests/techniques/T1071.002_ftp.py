#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Talks to its server over FTP: logs in and uploads a file.
import os
import sys

if os.environ.get("HOME") != "/home/dana":
    sys.exit("run only inside sbxlua's analysis box")
import ftplib
import io

try:
    ftp = ftplib.FTP("ftp.example.net", timeout=3)
    ftp.login("drop", "drop")
    ftp.storbinary("STOR host.txt", io.BytesIO(b"hello"))
    ftp.quit()
except Exception:
    pass
