#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Parse Python source with ast and list its functions and calls."""
import ast

SOURCE = '''
def load(path):
    with open(path) as f:
        return parse(f.read())

def parse(text):
    return [line.split(",") for line in text.splitlines()]

class Report:
    def render(self, rows):
        return "\\n".join(map(str, rows))
'''
tree = ast.parse(SOURCE)
funcs = [n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
calls = sorted({n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)})
print("functions:", funcs)
print("calls:", calls)
print("classes:", [n.name for n in tree.body if isinstance(n, ast.ClassDef)])
