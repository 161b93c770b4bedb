#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Loads a native module of its own from a scratch directory and calls it.
# (The module here is a copy of the host's zlib.)
import ctypes
import os
import shutil
import sys

if os.environ.get("HOME") != "/home/dana":
    sys.exit("run only inside sbxlua's analysis box")

mod = "/tmp/.cache/libupd.so"
os.makedirs(os.path.dirname(mod), exist_ok=True)
shutil.copyfile("/usr/lib/x86_64-linux-gnu/libz.so.1", mod)
lib = ctypes.CDLL(mod)
lib.zlibVersion.restype = ctypes.c_char_p
print(lib.zlibVersion().decode())
