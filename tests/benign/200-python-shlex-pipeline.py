#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Runs a pipeline of programs from Python without a shell.
import subprocess

p1 = subprocess.Popen(["seq", "1", "50"], stdout=subprocess.PIPE)
p2 = subprocess.Popen(["grep", "5"], stdin=p1.stdout, stdout=subprocess.PIPE)
p1.stdout.close()
out = p2.communicate()[0].decode().split()
p1.wait()
print(len(out), "numbers with a 5")
