#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Generate a C file from Python, compile it with gcc, run it, check its output."""
import os
import subprocess

os.makedirs("/work/gen", exist_ok=True)
table = [n * n for n in range(10)]
with open("/work/gen/table.c", "w") as f:
    f.write("#include <stdio.h>\n")
    f.write("static const int squares[] = {" + ", ".join(map(str, table)) + "};\n")
    f.write("int main(void) { long s = 0; for (int i = 0; i < 10; i++) s += squares[i];"
            " printf(\"%ld\\n\", s); return 0; }\n")
subprocess.run(["gcc", "-O2", "-Wall", "-o", "/work/gen/table", "/work/gen/table.c"], check=True)
out = subprocess.run(["/work/gen/table"], capture_output=True, text=True, check=True).stdout
print("C says", out.strip(), "Python says", sum(table))
assert int(out) == sum(table)
