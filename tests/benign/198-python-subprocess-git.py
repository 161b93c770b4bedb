#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Drives git from Python: a repository made and its log read.
import os
import subprocess

d = "/work/pyrepo"
os.makedirs(d, exist_ok=True)
run = lambda *a: subprocess.run(a, cwd=d, check=True, capture_output=True, text=True).stdout
run("git", "init", "-q")
run("git", "config", "user.email", "dev@example.org")
run("git", "config", "user.name", "dev")
with open(os.path.join(d, "f"), "w") as f:
    f.write("x\n")
run("git", "add", "f")
run("git", "commit", "-qm", "first")
print(run("git", "log", "--oneline").strip())
