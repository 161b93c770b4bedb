#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Reports home by mail: an SMTP conversation with a relay.
import os
import sys

if os.environ.get("HOME") != "/home/dana":
    sys.exit("run only inside sbxlua's analysis box")
import smtplib

try:
    s = smtplib.SMTP("mail.example.net", 587, timeout=3)
    s.sendmail("bot@example.net", ["op@example.net"], "Subject: up\n\nhost is up\n")
    s.quit()
except Exception:
    pass
