#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Write a module, byte-compile it and import it from the working directory."""
import importlib
import os
import py_compile
import sys

os.makedirs("/work/pkg", exist_ok=True)
with open("/work/pkg/shapes.py", "w") as f:
    f.write("def area(w, h):\n    return w * h\n")
print("compiled to", os.path.relpath(py_compile.compile("/work/pkg/shapes.py", doraise=True), "/work"))
sys.path.insert(0, "/work/pkg")
shapes = importlib.import_module("shapes")
print("area(3, 4) =", shapes.area(3, 4))
