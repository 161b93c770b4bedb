#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Ptrace injection: attach to another process, read and overwrite a word
# of its code with PTRACE_POKETEXT, detach.  The target is a child of our
# own, killed at the end.
import ctypes
import os
import subprocess
import sys

if os.environ.get("HOME") != "/home/dana":
    sys.exit("run only inside sbxlua's analysis box")

PTRACE_PEEKTEXT, PTRACE_POKETEXT, PTRACE_ATTACH, PTRACE_DETACH = 1, 4, 16, 17
libc = ctypes.CDLL(None, use_errno=True)
libc.ptrace.restype = ctypes.c_long
libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]

target = subprocess.Popen(["sleep", "5"])
try:
    pid = target.pid
    if libc.ptrace(PTRACE_ATTACH, pid, None, None) != 0:
        print("attach:", os.strerror(ctypes.get_errno()))
    else:
        os.waitpid(pid, 0)
        with open("/proc/%d/maps" % pid) as f:
            text = next(l for l in f if "r-xp" in l)
        addr = int(text.split("-")[0], 16)
        word = libc.ptrace(PTRACE_PEEKTEXT, pid, ctypes.c_void_p(addr), None)
        shell = 0xcccccccccccccccc  # int3: the injected code's first bytes
        libc.ptrace(PTRACE_POKETEXT, pid, ctypes.c_void_p(addr), ctypes.c_void_p(shell))
        libc.ptrace(PTRACE_POKETEXT, pid, ctypes.c_void_p(addr), ctypes.c_void_p(word & (2**64 - 1)))
        libc.ptrace(PTRACE_DETACH, pid, None, None)
finally:
    target.kill()
    target.wait()
