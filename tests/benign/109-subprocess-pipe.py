#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Feed data to sort and uniq through subprocess pipes."""
import subprocess

words = "pear apple fig apple pear apple kiwi".split()
sort = subprocess.Popen(["sort"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
uniq = subprocess.Popen(["uniq", "-c"], stdin=sort.stdout, stdout=subprocess.PIPE, text=True)
sort.stdout.close()
sort.stdin.write("\n".join(words) + "\n")
sort.stdin.close()
out, _ = uniq.communicate()
assert sort.wait() == 0 and uniq.returncode == 0
for line in out.splitlines():
    count, word = line.split()
    print(f"{word:6} {count}")
